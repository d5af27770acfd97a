/**
 * Resolves with `result` once what the executor wrote to stdout and stderr has been handed on. Nx
 * runs an executor in a child process and ends it as soon as the executor resolves: a long report
 * (a contract review of hundreds of changes) still queued then was cut short, at a different line
 * on every run.
 */
export async function flushed<T>(result: T): Promise<T> {
  await Promise.all([process.stdout, process.stderr].map(untilHandedOn));
  return result;
}

/** How long a stream may take nothing of what is queued before it counts as one nobody reads (a test runner's worker). */
const UNREAD_STREAM_MS = 1_000;
const POLL_MS = 50;

/**
 * Resolves once what was written before is handed to the operating system: an empty write's
 * callback comes after every earlier write's (the JavaScript queue and the pipe's own). It waits
 * as long as the reader keeps taking what is queued, however slowly (a parent on a busy machine);
 * only a stream that takes nothing for UNREAD_STREAM_MS is given up on (its reader never reads,
 * and the report is lost there either way). A fixed bound once cut a long review short under load.
 */
export function untilHandedOn(stream: NodeJS.WritableStream & { writable: boolean; writableLength: number }): Promise<void> {
  // Nothing queued: every earlier write has completed, so it is with the operating system already.
  if (!stream.writable || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let queued = stream.writableLength;
    let still = 0;
    const done = () => {
      clearInterval(poll);
      resolve();
    };
    const poll = setInterval(() => {
      const now = stream.writableLength;
      still = now < queued ? 0 : still + POLL_MS;
      queued = now;
      if (still >= UNREAD_STREAM_MS) done();
    }, POLL_MS);
    poll.unref();
    stream.write('', done);
  });
}
