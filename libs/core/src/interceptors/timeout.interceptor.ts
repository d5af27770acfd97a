import { InterceptorOptionError } from '../errors/interceptor-option.error';
import type { CallNext, InterceptorClass, ToolCall, ToolInterceptor } from '../metadata/tool-interceptor';
import { ToolError } from '../results/tool-error';

/** Why a call's signal was aborted by `Timeout`: `context.signal.reason` in the tool. */
export class CallTimeoutError extends Error {
  constructor(readonly tool: string, readonly ms: number) {
    super(`The tool '${tool}' ran past its ${ms} ms deadline.`);
    this.name = 'CallTimeoutError';
  }
}

/**
 * A deadline on each call of the tools it is put on: past `ms` milliseconds the call's signal
 * (`context.signal`) is aborted, and the client gets the `ToolError` `timeout` without waiting for
 * the tool; what the tool returns later is dropped.
 */
export function Timeout(ms: number): InterceptorClass {
  if (!Number.isSafeInteger(ms) || ms < 1) throw new InterceptorOptionError('Timeout', 'ms', ms, 'give the deadline in whole milliseconds, at least 1 (Timeout(5000) is five seconds).');

  class TimeoutInterceptor implements ToolInterceptor {
    intercept(call: ToolCall, next: CallNext): Promise<unknown> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<ToolError>((resolve) => {
        timer = setTimeout(() => {
          call.abort(new CallTimeoutError(call.name, ms));
          resolve(new ToolError('timeout', `The tool '${call.name}' did not finish within ${ms} ms and was stopped. Retry, or ask for less.`));
        }, ms);
      });
      const running = next();
      // Its late outcome is dropped, a rejection included.
      running.catch(() => undefined);
      return Promise.race([running, deadline]).finally(() => clearTimeout(timer));
    }
  }
  Object.defineProperty(TimeoutInterceptor, 'name', { value: 'Timeout' });
  return TimeoutInterceptor;
}
