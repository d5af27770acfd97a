/** A `buildServer` option that cannot work, named with the server and how to fix it. */
export class ServerOptionError extends Error {
  constructor(server: string, option: string, problem: string, fix: string) {
    super(`buildServer '${server}': ${option} ${problem}. Fix: ${fix}`);
    this.name = 'ServerOptionError';
  }
}
