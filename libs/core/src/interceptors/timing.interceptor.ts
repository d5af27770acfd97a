import { inject, injectable } from 'tsyringe';
import type { CallNext, ToolCall, ToolInterceptor } from '../metadata/tool-interceptor';
import { isToolError } from '../results/is-tool-error';
import type { Logger } from '../server/logging/logger';
import { LOGGER } from '../server/logging/logger-token';

/** Logs each call's duration and how it ended (`ok`, `tool_error`, `threw`) to the server log. */
@injectable()
export class Timing implements ToolInterceptor {
  constructor(@inject(LOGGER) private readonly logger: Logger) {}

  async intercept(call: ToolCall, next: CallNext): Promise<unknown> {
    const started = performance.now();
    let outcome = 'threw';
    try {
      const result = await next();
      outcome = isToolError(result) ? 'tool_error' : 'ok';
      return result;
    } finally {
      const ms = Math.round((performance.now() - started) * 1000) / 1000;
      this.logger.info('tool call timed', { toolset: call.toolset, tool: call.name, ms, outcome });
    }
  }
}
