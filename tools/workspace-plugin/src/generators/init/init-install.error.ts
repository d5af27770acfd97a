/** `npm install` failed after init wrote its files, and init put them back. */
export class InitInstallError extends Error {
  constructor(cause: string, readonly undone: readonly string[]) {
    super(
      `init stopped: installing the packages it added failed (${cause.split('\n')[0]}; npm's own output is above). ` +
        `It undid what it wrote, so the workspace is as it was: ${undone.join(', ')}. ` +
        'Fix what npm reports (a package this workspace pins below a range toolsets needs, or the registry being unreachable), then run `nx g @toolsets/workspace-plugin:init` again.',
    );
    this.name = 'InitInstallError';
  }
}
