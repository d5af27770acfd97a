import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * Thrown by the `tools/call` handler to answer with a task handle (`resultType: "task"` in
 * 2026-07-28, `{ task }` in 2025-11-25) instead of a `CallToolResult`: the SDK checks every
 * `tools/call` result against `CallToolResult` and has no server side for tasks, so the handle
 * goes around that check.
 */
export class TaskAnswer {
  constructor(readonly result: Result) {}
}

/** The SDK's low-level `Server`, whose `tools/call` may answer with a task handle (`TaskAnswer`). */
export class TaskAnsweringServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return inner;
    return async (request, ctx) => {
      try {
        return await inner(request, ctx);
      } catch (answer) {
        if (answer instanceof TaskAnswer) return answer.result;
        throw answer;
      }
    };
  }

  /**
   * `handler` wrapped exactly as `setRequestHandler` wraps it (the SDK's request and result checks,
   * task answers, and a subclass's spans), for a caller that delivers requests to it itself: the
   * HTTP fast path, which runs `tools/call` on one long-lived server instead of one per request.
   */
  wrappedHandler(method: string, handler: Handler): Handler {
    return this._wrapHandler(method, handler);
  }
}
