/**
 * Waits until `done()` holds (it may be async), checking every 10 ms; past `deadlineMs` (or once
 * `givenUp()` holds, such as a child process that exited) it throws `failure()`'s message, which
 * says what was seen. For what a test cannot await as an event: a line in a child process's output.
 */
export async function waitUntil(done: () => boolean | Promise<boolean>, options: { deadlineMs: number; failure: () => string; givenUp?: () => boolean }): Promise<void> {
  const until = Date.now() + options.deadlineMs;
  while (!(await done())) {
    if (Date.now() > until || options.givenUp?.()) throw new Error(options.failure());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Reads `read()` every `everyMs` (default 25) until `done(value)` holds, and returns that value:
 * a task's state until it ends, a count until it is reached. Past `deadlineMs` (default 30 s, a
 * bound on a broken system, not a measure of a healthy one) it throws, naming `what` and the last value read.
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, options: { deadlineMs?: number; everyMs?: number; what?: string } = {}): Promise<T> {
  const until = Date.now() + (options.deadlineMs ?? 30_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${options.what ?? 'The value'} never reached the state wanted within ${options.deadlineMs ?? 30_000} ms; last read: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 25));
  }
}
