/** Marks a call signal, across copies of this module (two installed versions of core still agree). */
const CALL_SIGNAL = Symbol.for('@toolsets/core:call-signal');

/**
 * What a call throws to unwind the tool's own code, which is not the tool failing: the call ends
 * with `input_required` (InputRequiredSignal), or becomes a task (StartTaskSignal). Every layer
 * between the throw and the handler passes it on untouched.
 */
export abstract class CallSignal {
  readonly [CALL_SIGNAL] = true;
}

export function isCallSignal(value: unknown): value is CallSignal {
  return typeof value === 'object' && value !== null && (value as { [CALL_SIGNAL]?: unknown })[CALL_SIGNAL] === true;
}
