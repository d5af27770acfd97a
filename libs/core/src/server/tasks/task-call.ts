import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import { TaskAnswer } from '../../wire/task-answer';
import { checkArgumentLimits } from '../checks/argument-limits';
import { callOne, type CallRequest, type CallToolSetup, type ToolsCallHandler } from '../tools/call-tool-handler';
import type { RunningTask, TaskAsker } from './running-task';
import type { TaskEngine } from './task-engine';
import type { TaskQuotaRefusal } from './task-limits';
import { taskCaller } from './task-owner';
import { detachedCall, storedOrigin } from './task-origin';
import type { CallOrigin } from '../request/call-origin';
import { StartTaskSignal } from '../request/start-task';
import type { TaskRecord } from './task-record';
import { untilSighted } from './task-sightings';
import { declaresTasks, generationOf, TASKS_EXTENSION, v1Task, v2Task, type TaskGeneration } from './task-wire';

/**
 * `tools/call` for a server with task tools: a task tool called by a client that supports tasks
 * answers at once with a task handle, once the task is saved, and runs in the background; every
 * other call goes to `direct` unchanged. Server-directed, as the extension says: a 2026-07-28
 * request gets a task only when it declares the extension, a 2025-11-25 one when it asks (`task`).
 * Without an engine (no task tools), `direct` itself.
 */
export function taskCallHandler(direct: ToolsCallHandler, engine: TaskEngine | undefined): ToolsCallHandler {
  if (!engine) return direct;
  return async (request, call) => {
    const tool = call.view().tools.get(request.params.name);
    if (!tool?.task) return direct(request, call);
    const { origin, server } = call;
    const generation = generationOf(origin);
    if (!wantsTask(generation, request, call.request!)) {
      if (tool.task.support === 'required') throw refusal(generation, tool);
      return direct(request, call);
    }
    // Arguments that do not fit (or pass the request's limits) are refused at once, not made a task that fails.
    const args = request.params.arguments ?? {};
    if (checkArgumentLimits(args, call.site.limits) || !tool.inputValidator.Check(args)) return refusedArguments(generation, await direct(request, call));
    const gathered = tool.task.askFirst ? await askedFirst(request, call, direct) : undefined;
    // An askFirst tool that answered in the request without becoming a task.
    if (gathered && 'answer' in gathered) return gathered.answer;
    return runAsTask({ engine, server, origin, generation }, tool, ttlOf(tool, request), args, gathered?.answers);
  };
}

/**
 * The refusal of a task-augmented call's arguments: a 2026-07-28 client takes the ordinary isError
 * result; a 2025-11-25 requester takes only a task handle in answer to `params.task`, so there it is
 * the protocol's invalid-params error, in the same words (the official requester library reported
 * the result as "Protocol value failed schema validation", losing which argument and why).
 */
function refusedArguments(generation: TaskGeneration, answer: CallToolResult): CallToolResult {
  if (generation !== 'v1' || !answer.isError) return answer;
  const text = answer.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, text);
}

/**
 * Makes the call a task, saved before the client hears of it, and answers with it (thrown as a
 * `TaskAnswer`); a 2026-07-28 call whose task is done within the tool's inline window answers with
 * the result instead (a client that declared tasks must take either answer).
 */
async function runAsTask(
  where: { engine: TaskEngine; server: Server; origin: CallOrigin; generation: TaskGeneration },
  tool: CompiledTool,
  ttlMs: number,
  args: Record<string, unknown>,
  gathered: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const { engine, server, origin, generation } = where;
  const record = await engine.create(tool, taskCaller(origin, tool.toolset.credentialHeaders), ttlMs, args, storedOrigin(origin, tool), gathered);
  if (typeof record === 'string') throw tooManyTasks(record, engine);
  const asker = generation === 'v1' ? directAsker(server, origin, record.taskId) : undefined;
  await engine.start(record, asker, generation === 'v1' && !asker ? UNREACHABLE_V1_QUESTION : undefined);
  const inline = generation === 'v2' && tool.task!.inlineMs > 0 ? await engine.completedWithin(record.taskId, tool.task!.inlineMs) : undefined;
  if (inline) return inline as CallToolResult;
  throw new TaskAnswer(generation === 'v2' ? { resultType: 'task', ...v2Task(record) } : { task: v1Task(record) });
}

/**
 * What a 2025-11-25 task's status says while it waits for an answer its connection cannot carry
 * (stateless HTTP): a requester that only polls tasks/get would otherwise wait, silently, forever.
 */
const UNREACHABLE_V1_QUESTION =
  'Waiting for an answer to a question: this connection cannot carry the question to the client (2025-era, stateless HTTP). Call tasks/result with this task id to receive it and answer, or serve with MCP_SESSIONS=on so it is sent to the client directly.';

/**
 * 2025-11-25: a task's questions go to the client as requests tied to the task (`related-task`),
 * on the connection that created it, when that connection carries requests back (stdio, in
 * memory, an HTTP session) and the client declared elicitation or sampling.
 */
function directAsker(server: Server, origin: CallOrigin, taskId: string): TaskAsker | undefined {
  if (origin.transport === 'http' && !origin.sessionId) return undefined;
  const related = { [RELATED_TASK_META_KEY]: { taskId } };
  return async (method, params, signal) => {
    // Over HTTP the question must not overtake the task's handle: it waits until the client names the task.
    if (origin.transport === 'http') await untilSighted(server, taskId, signal);
    const capabilities = server.getClientCapabilities();
    if (method === 'elicitation/create' && capabilities?.elicitation) return server.elicitInput({ ...(params as object), _meta: related } as never);
    if (method === 'sampling/createMessage' && capabilities?.sampling) return server.createMessage({ ...(params as object), _meta: related } as never);
    throw new Error(`the client cannot answer ${method}`);
  };
}

/** The task's time to live: what the request asks, within the tool's own. */
function ttlOf(tool: CompiledTool, request: CallRequest): number {
  const asked = request.params.task?.ttl;
  return typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? Math.min(asked, tool.task!.ttlMs) : tool.task!.ttlMs;
}

/**
 * An `askFirst` tool's call runs here first, asking its questions; it becomes a task where the tool
 * calls `task.start()` (with the answers gathered), or answers in the request if it never does.
 */
async function askedFirst(request: CallRequest, call: Parameters<ToolsCallHandler>[1], direct: ToolsCallHandler): Promise<{ answers: Record<string, unknown> } | { answer: CallToolResult }> {
  call.startsAsTask = true;
  try {
    return { answer: await direct(request, call) };
  } catch (signal) {
    if (signal instanceof StartTaskSignal) return { answers: signal.gathered };
    throw signal;
  }
}

function wantsTask(generation: TaskGeneration, request: CallRequest, ctx: ServerContext): boolean {
  return generation === 'v2' ? declaresTasks(ctx) : request.params.task !== undefined;
}

/** JSON-RPC's "server error" code for a busy server, as the transport answers one (which this layer may not import). */
const SERVER_BUSY = -32000;

/** The answer to a task call past the limits: a transient condition, as a busy server's, saying which limit and what to do. */
function tooManyTasks(limit: TaskQuotaRefusal, engine: TaskEngine): ProtocolError {
  const { maxActive, maxActivePerCaller } = engine.limits;
  const message =
    limit === 'caller'
      ? `Too many unfinished tasks from this caller (at most ${maxActivePerCaller}, TASKS_MAX_PER_CALLER): wait for one to end, or cancel one with tasks/cancel, then call again.`
      : `Too many unfinished tasks on this server (at most ${maxActive}, TASKS_MAX); retry shortly.`;
  return new ProtocolError(SERVER_BUSY, message, { limit: limit === 'caller' ? 'TASKS_MAX_PER_CALLER' : 'TASKS_MAX' });
}

function refusal(generation: TaskGeneration, tool: CompiledTool): ProtocolError {
  if (generation === 'v2') {
    return new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `The tool '${tool.name}' runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
    );
  }
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, `The tool '${tool.name}' runs only as a task: call it with params.task (2025-11-25 tasks).`);
}

/**
 * How a task's call runs, in whichever process takes it: rebuilt from its record (its tool,
 * arguments and origin), with the task's own signal, reporting and asking through the task.
 * `server` is a server of the definition, for what a call reads of one (the client's version).
 */
export function taskRunner(definition: CallToolSetup, server: () => Server) {
  return async (record: TaskRecord, task: RunningTask): Promise<CallToolResult> => {
    const tool = definition.catalog.tools.get(record.tool);
    if (!tool || !record.origin) throw new Error(`The task's tool '${record.tool}' is not served by '${definition.name}' here.`);
    const call = detachedCall(record.origin, task.abort.signal, server());
    return callOne(definition, call, tool, record.arguments ?? {}, { channel: task, input: task.input, signal: task.abort.signal });
  };
}
