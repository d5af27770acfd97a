/**
 * Waits until `done()` holds, checking every 10 ms; past `deadlineMs` (or once `givenUp()` holds,
 * such as a child process that exited) it throws `failure()`'s message, which says what was seen.
 * For what a test cannot await as an event: a line in a child process's output.
 */
export async function waitUntil(done: () => boolean, options: { deadlineMs: number; failure: () => string; givenUp?: () => boolean }): Promise<void> {
  const until = Date.now() + options.deadlineMs;
  while (!done()) {
    if (Date.now() > until || options.givenUp?.()) throw new Error(options.failure());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
