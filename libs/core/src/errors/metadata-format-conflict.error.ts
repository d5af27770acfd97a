/** Two copies of @toolsets/core that record decorators differently are loaded in one process. */
export class MetadataFormatConflictError extends Error {
  constructor(
    readonly loadedFormat: number,
    readonly ownFormat: number,
  ) {
    super(
      `Two copies of @toolsets/core are loaded whose decorator metadata differ (format ${loadedFormat} and ${ownFormat}), so toolsets decorated with one would look undecorated to the other. ` +
        'Fix: install one copy (`npm ls @toolsets/core` shows them; align the versions and run `npm dedupe`).',
    );
    this.name = 'MetadataFormatConflictError';
  }
}
