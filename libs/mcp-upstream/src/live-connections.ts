/** What the process keeps of an upstream connection in use: how to close it, and how to end its child at exit. */
export interface LiveConnection {
  close(): Promise<void>;
  killChild(): void;
}

/** Every connection of the process that has been used and not closed, for `closeUpstreams` and the exit hook. */
export const live = new Set<LiveConnection>();
let exitHooked = false;

/**
 * Closes every upstream connection of the process (stdio children end): for an app's graceful
 * shutdown and for tests. Whatever is still open when the process exits is ended then anyway:
 * an upstream's child process never outlives the app.
 */
export async function closeUpstreams(): Promise<void> {
  await Promise.all([...live].map((connection) => connection.close()));
}

export function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const connection of live) connection.killChild();
  });
}
