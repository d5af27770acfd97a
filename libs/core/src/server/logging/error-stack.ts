/**
 * Whether the log carries the stack of an error a handler threw: outside production (`NODE_ENV`
 * other than `production`) or whenever `TOOLSETS_DEBUG` is set. The client never gets it.
 */
export function logsStacks(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['NODE_ENV'] !== 'production' || Boolean(env['TOOLSETS_DEBUG']);
}

/** The most stack frames a log line carries: enough to find a TypeError deep in a service. */
const MAX_FRAMES = 30;

/** `{ stack }` for a log line's fields when stacks are logged and the thrown value has one, else nothing. */
export function stackField(error: unknown, env: NodeJS.ProcessEnv = process.env): { stack?: string } {
  if (!logsStacks(env) || !(error instanceof Error) || typeof error.stack !== 'string') return {};
  const [head, ...frames] = error.stack.split('\n');
  return { stack: [head, ...frames.slice(0, MAX_FRAMES), ...(frames.length > MAX_FRAMES ? [`    … ${frames.length - MAX_FRAMES} more frames`] : [])].join('\n') };
}
