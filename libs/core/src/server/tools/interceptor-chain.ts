import type { CallNext, InterceptorClass, ToolCall, ToolInterceptor } from '../../metadata/tool-interceptor';

/**
 * Runs `chain` around `invoke`: the first interceptor gets a `next` that runs the second, and so
 * on; the last one's `next` runs the tool. Each is resolved (from the call's container) when the
 * chain reaches it, so one that answers without `next()` builds nothing after it.
 */
export function runInterceptors(chain: readonly InterceptorClass[], resolve: (cls: InterceptorClass) => ToolInterceptor, call: ToolCall, invoke: () => unknown): Promise<unknown> {
  const step = (index: number): Promise<unknown> => {
    try {
      if (index === chain.length) return Promise.resolve(invoke());
      const next: CallNext = () => step(index + 1);
      return Promise.resolve(resolve(chain[index]!).intercept(call, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0);
}
