import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { CallSite } from '../request/member-scope';
import type { TaskEngine } from './task-engine';
import { originOfRequest, type CallOrigin } from '../request/call-origin';
import type { TaskRecord } from './task-record';
import { declaresTasks, generationOf, taskParams, TASKS_EXTENSION, v1Task, v2Task } from './task-wire';
import { taskSighted } from './task-sightings';

/** The most tasks one `tasks/list` answer lists. */
const LIST_LIMIT = 100;

const NO_PARAMS: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'toolsets', validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }) },
};

/**
 * The task methods on one SDK `Server`: `tasks/get`, `tasks/update` and `tasks/cancel` (both
 * protocols), `tasks/result` and `tasks/list` (2025-11-25): the protocol's side of the engine's
 * `get`/`update`/`cancel`/`result`/`list`, which check the caller. A task another caller created
 * is answered exactly like an unknown id.
 */
export function registerTaskHandlers(server: Server, site: CallSite, engine: TaskEngine): void {
  // The request's origin, once per request; a 2026-07-28 request must declare the extension to use these methods.
  const declared = (ctx: ServerContext): CallOrigin => {
    const origin = originOfRequest(site, ctx, server);
    if (generationOf(origin) === 'v2' && !declaresTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    return origin;
  };
  // The client named the task: it has its id (a question tied to it may now reach the client).
  const sighted = <T extends object>(taskId: string, found: T | undefined): T => {
    if (!found) throw notFound();
    taskSighted(server, taskId);
    return found;
  };

  server.setRequestHandler('tasks/get', { params: taskParams('tasks/get') }, async (params, ctx) => {
    const origin = declared(ctx);
    const record = sighted(params.taskId, await engine.get(params.taskId, origin));
    return generationOf(origin) === 'v2' ? v2Task(record) : v1Task(record);
  });

  server.setRequestHandler('tasks/update', { params: taskParams<{ taskId: string; inputResponses?: Record<string, unknown> }>('tasks/update', ['inputResponses']) }, async (params, ctx) => {
    // The SDK lifts `inputResponses` out of a 2026-07-28 request's params into the context (its multi round-trip seam).
    const responses = params.inputResponses ?? (ctx.mcpReq.inputResponses as Record<string, unknown> | undefined);
    sighted(params.taskId, await engine.update(params.taskId, declared(ctx), responses));
    return {};
  });

  server.setRequestHandler('tasks/cancel', { params: taskParams('tasks/cancel') }, async (params, ctx) => {
    const origin = declared(ctx);
    const outcome = sighted(params.taskId, await engine.cancel(params.taskId, origin));
    const v1 = generationOf(origin) === 'v1';
    if ('ended' in outcome) {
      if (v1) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: it is already ${outcome.ended.status}.`);
      return {};
    }
    return v1 ? v1Task(outcome.cancelled) : {};
  });

  server.setRequestHandler('tasks/result', { params: taskParams('tasks/result') }, async (params, ctx) => {
    const origin = originOfRequest(site, ctx, server);
    sighted(params.taskId, await engine.get(params.taskId, origin));
    const asked = new Set<string>();
    const ended = await engine.result(params.taskId, origin, ctx.mcpReq.signal, (record) => askOnThisRequest(record, asked, origin, ctx));
    return v1Result(ended);
  });

  server.setRequestHandler('tasks/list', { params: NO_PARAMS }, async (_params, ctx) => ({ tasks: (await engine.list(originOfRequest(site, ctx, server), LIST_LIMIT)).map(v1Task) }));

  /**
   * 2025-11-25 `tasks/result` while the task waits for input: its questions go to the client as
   * requests on this one (they need a connection that carries answers back: stdio, or HTTP with sessions).
   */
  async function askOnThisRequest(record: TaskRecord, asked: Set<string>, origin: CallOrigin, ctx: ServerContext): Promise<void> {
    for (const [key, request] of Object.entries(record.inputRequests ?? {})) {
      if (asked.has(key)) continue;
      asked.add(key);
      const { method, params } = request as { method: string; params: Record<string, unknown> };
      const related = { ...params, _meta: { [RELATED_TASK_META_KEY]: { taskId: record.taskId } } };
      try {
        const answer = method === 'elicitation/create' ? await ctx.mcpReq.elicitInput(related as never) : await ctx.mcpReq.requestSampling(related as never);
        await engine.update(record.taskId, origin, { [key]: answer });
      } catch (error) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `The task needs input from the client (${method}), which it could not ask on this connection: ${error instanceof Error ? error.message : String(error)}. ` +
            'A 2025-era client answers over stdio or over HTTP with sessions (MCP_SESSIONS=on); a 2026-07-28 client answers with tasks/update.',
        );
      }
    }
  }
}

/** 2025-11-25 `tasks/result`'s answer for a task as it ended: its result, tied to the task, or the error it failed with. */
function v1Result(ended: TaskRecord | undefined): Record<string, unknown> {
  if (!ended) throw notFound();
  if (ended.status === 'failed') throw new ProtocolError(ended.error?.code ?? ProtocolErrorCode.InternalError, ended.error?.message ?? 'The task failed.');
  if (ended.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The task was cancelled.');
  const result = ended.result ?? {};
  return { ...result, _meta: { ...(result._meta as object | undefined), [RELATED_TASK_META_KEY]: { taskId: ended.taskId } } };
}

/** A task that is unknown, expired or another caller's: the same answer for all three. */
function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found (or expired).');
}
