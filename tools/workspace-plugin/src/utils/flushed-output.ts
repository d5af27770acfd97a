/**
 * Resolves with `result` once what the executor wrote to stdout and stderr has been handed on. Nx
 * runs an executor in a child process and ends it as soon as the executor resolves: a long report
 * (a contract review of hundreds of changes) still queued then was cut short, at a different line
 * on every run.
 */
export async function flushed<T>(result: T): Promise<T> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => (stream.write('', () => resolve()) ? undefined : stream.once('drain', () => resolve())))));
  return result;
}
