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

/** The longest wait for a stream nobody reads (a test runner's worker): the report is lost there either way. */
const UNREAD_STREAM_MS = 1_000;

/**
 * Resolves once what was written before is handed to the operating system: an empty write's
 * callback comes after every earlier write's (the JavaScript queue and the pipe's own). Bounded,
 * for a stream whose reader never reads.
 */
function untilHandedOn(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writable) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, UNREAD_STREAM_MS);
    timer.unref();
    stream.write('', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
