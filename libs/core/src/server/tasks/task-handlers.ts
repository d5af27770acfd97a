import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type Server, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../../compiled/tool-catalog';
import type { CallSite } from '../request/member-scope';
import type { TaskEngine } from './task-engine';
import { isOwnTask, taskCaller } from './task-owner';
import { callOrigin } from '../request/call-origin';
import { isTerminal, type TaskRecord } from './task-record';
import { declaresTasks, generationOf, taskParams, TASKS_EXTENSION, v1Task, v2Task } from './task-wire';
import { taskSighted } from './task-sightings';

/** The most tasks one `tasks/list` answer lists. */
const LIST_LIMIT = 100;

const NO_PARAMS: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'toolsets', validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }) },
};

/**
 * The task methods on one SDK `Server`: `tasks/get`, `tasks/update` and `tasks/cancel` (both
 * protocols), `tasks/result` and `tasks/list` (2025-11-25). A task another caller created is
 * answered exactly like an unknown id.
 */
export function registerTaskHandlers(server: Server, site: CallSite, engine: TaskEngine, catalog: ToolCatalog): void {
  const find = async (ctx: ServerContext, taskId: string): Promise<TaskRecord> => {
    const record = await engine.store.get(taskId);
    if (!record || !isOwnTask(record, callOrigin(site, ctx, server), catalog.tools)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found (or expired).');
    }
    taskSighted(server, taskId);
    return record;
  };
  // A 2026-07-28 request must declare the extension to use its methods.
  const declared = (ctx: ServerContext) => {
    if (generationOf(callOrigin(site, ctx, server)) === 'v2' && !declaresTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  };

  server.setRequestHandler('tasks/get', { params: taskParams('tasks/get') }, async (params, ctx) => {
    declared(ctx);
    const record = await find(ctx, params.taskId);
    return generationOf(callOrigin(site, ctx, server)) === 'v2' ? v2Task(record) : v1Task(record);
  });

  server.setRequestHandler('tasks/update', { params: taskParams<{ taskId: string; inputResponses?: Record<string, unknown> }>('tasks/update', ['inputResponses']) }, async (params, ctx) => {
    declared(ctx);
    const record = await find(ctx, params.taskId);
    // The SDK lifts `inputResponses` out of a 2026-07-28 request's params into the context (its multi round-trip seam).
    const responses = params.inputResponses ?? (ctx.mcpReq.inputResponses as Record<string, unknown> | undefined);
    if (responses && record.status === 'input_required') await engine.store.signal(record.taskId, { kind: 'answer', responses });
    return {};
  });

  server.setRequestHandler('tasks/cancel', { params: taskParams('tasks/cancel') }, async (params, ctx) => {
    declared(ctx);
    const record = await find(ctx, params.taskId);
    const v1 = generationOf(callOrigin(site, ctx, server)) === 'v1';
    if (isTerminal(record.status)) {
      if (v1) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: it is already ${record.status}.`);
      return {};
    }
    const after = (await engine.store.update(record.taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' })) ?? record;
    await engine.store.signal(record.taskId, { kind: 'cancel' });
    return v1 ? v1Task(after) : {};
  });

  server.setRequestHandler('tasks/result', { params: taskParams('tasks/result') }, async (params, ctx) => v1Result(await find(ctx, params.taskId), ctx));

  // Where every anonymous caller is one owner (stateless HTTP with no token, credential or session), nothing is listed: a task id is its bearer's secret.
  server.setRequestHandler('tasks/list', { params: NO_PARAMS }, async (_params, ctx) => {
    const origin = callOrigin(site, ctx, server);
    const callers = [...catalog.toolsets].map((toolset) => taskCaller(origin, toolset.credentialHeaders));
    const owners = new Set(callers.filter((caller) => caller.listable).map((caller) => caller.owner));
    const records = (await Promise.all([...owners].map((owner) => engine.store.list(owner, LIST_LIMIT)))).flat();
    return { tasks: records.slice(0, LIST_LIMIT).map(v1Task) };
  });

  /**
   * 2025-11-25 `tasks/result`: waits for the task to end and answers with its result. While it
   * waits for input, its questions go to the client as requests on this one (they need a
   * connection that carries answers back: stdio, or HTTP with sessions).
   */
  async function v1Result(record: TaskRecord, ctx: ServerContext): Promise<Record<string, unknown>> {
    const asked = new Set<string>();
    let current: TaskRecord | undefined = record;
    while (current && !isTerminal(current.status)) {
      if (current.status === 'input_required') await askOnThisRequest(current, asked, ctx);
      else await pause(Math.min(current.pollIntervalMs, 200), ctx.mcpReq.signal);
      current = await engine.store.get(record.taskId);
    }
    if (!current) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found (or expired).');
    if (current.status === 'failed') throw new ProtocolError(current.error?.code ?? ProtocolErrorCode.InternalError, current.error?.message ?? 'The task failed.');
    if (current.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidRequest, 'The task was cancelled.');
    const result = current.result ?? {};
    return { ...result, _meta: { ...(result._meta as object | undefined), [RELATED_TASK_META_KEY]: { taskId: current.taskId } } };
  }

  async function askOnThisRequest(record: TaskRecord, asked: Set<string>, ctx: ServerContext): Promise<void> {
    const pending = Object.entries(record.inputRequests ?? {}).filter(([key]) => !asked.has(key));
    if (pending.length === 0) return pause(Math.min(record.pollIntervalMs, 200), ctx.mcpReq.signal);
    for (const [key, request] of pending) {
      asked.add(key);
      const { method, params } = request as { method: string; params: Record<string, unknown> };
      const related = { ...params, _meta: { [RELATED_TASK_META_KEY]: { taskId: record.taskId } } };
      try {
        const answer = method === 'elicitation/create' ? await ctx.mcpReq.elicitInput(related as never) : await ctx.mcpReq.requestSampling(related as never);
        await engine.store.signal(record.taskId, { kind: 'answer', responses: { [key]: answer } });
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

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
