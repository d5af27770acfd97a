/** A toolset read a credential header it did not declare: a programming error, reported on the call. */
export class UndeclaredCredentialError extends Error {
  constructor(toolset: string, header: string, declared: readonly string[]) {
    super(
      `Toolset '${toolset}' read the credential header '${header}' without declaring it ` +
        `(declared: ${declared.length ? declared.join(', ') : 'none'}). ` +
        `Add it to @Toolset({ credentialHeaders: ['${header}'] }) so the server can advertise it.`,
    );
    this.name = 'UndeclaredCredentialError';
  }
}
