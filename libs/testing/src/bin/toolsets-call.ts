#!/usr/bin/env node
import { callOptions, CallUsageError, USAGE } from '../call/call-options';
import { runCall } from '../call/run-call';

/** One tool call from the shell, with the SDK's own client: for the edit loop, for scripts, and for trying tasks and tokens. */
async function main(): Promise<number> {
  const options = callOptions(process.argv.slice(2), process.env);
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // The first Ctrl-C cancels the call (a task is cancelled on the server); a second one leaves at once.
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\ncancelling… (Ctrl-C again to leave at once)\n');
    interrupt.abort();
  });
  return runCall(options, { in: process.stdin, out: process.stdout, err: process.stderr }, interrupt.signal);
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(error instanceof CallUsageError ? 2 : 1);
  },
);
