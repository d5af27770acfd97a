import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, type CallToolResult, type Client, type InputRequests, type InputResponses } from '@modelcontextprotocol/client';
import { ToolError, type RequestContext } from '@toolsets/core';
import { bounded, cancelled, cancelledUpstream, lostOr, onConnectionOf, pause, pollEvery, type Reached, type UpstreamTaskCall, type UpstreamTaskPort } from './task-relay';
import { answerableBy, MAX_INPUT_ROUNDS, relayQuestions } from './upstream-questions';

/** The tasks extension of 2026-07-28, in capabilities on both sides. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Who this client says it is on each request (2026-07-28 requests carry it). */
const CLIENT_INFO = { name: 'toolsets-upstream', version: '0.1.0' };

/** Whether a 2026-07-28 upstream offers the tasks extension. */
export function takesModernTasks(client: Client): boolean {
  return (client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28' && client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** A task as the extension shows it (`tasks/get`, and a `tools/call` answered with one). */
interface ModernTask {
  taskId: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: InputRequests;
  result?: Record<string, unknown>;
  error?: { message?: string };
}

/**
 * A 2026-07-28 upstream's task (the tasks extension, server-directed): the call declares the
 * extension in its client capabilities (beside what the caller can answer), and the upstream
 * answers with a task, or with its result at once. The task is polled with `tasks/get`; its
 * questions (`input_required`, each under its key) are asked of the caller and answered with
 * `tasks/update`, each once; its result comes inside `tasks/get` when it completes. The SDK's
 * client does not send these methods on that era, so they go as raw requests on its connection.
 * Questions the upstream asks before it makes the task (`input_required` to the call) are
 * relayed the same way and answered by calling again, as any call's.
 */
export async function relayModernTask(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, timeoutMs: number): Promise<Reached<CallToolResult>> {
  let createdOn: Client | undefined;
  let answered: { inputResponses: InputResponses; requestState?: string } | undefined;
  for (let round = 1; round <= MAX_INPUT_ROUNDS; round += 1) {
    const sent = await port.send(async (client, signal, connection) => {
      createdOn = client;
      const params = { name: call.tool, arguments: { ...(call.args as Record<string, unknown> | undefined) }, ...answered, _meta: envelope(client, context) };
      return connection.rawRequests(client).request('tools/call', params, { signal });
    }, { timeoutMs });
    if (sent instanceof ToolError || 'failed' in sent) return sent;
    const answer = sent.answer;
    if (answer['resultType'] === 'task' && typeof answer['taskId'] === 'string') return followModern(call, context, onConnectionOf(port, createdOn!), answer as unknown as ModernTask);
    if (answer['resultType'] !== 'input_required') return { answer: completeResult(answer), redacting: sent.redacting };
    const asked = answer as { inputRequests?: InputRequests; requestState?: string };
    answered = { inputResponses: await relayQuestions(call.tool, asked.inputRequests ?? {}, context), ...(asked.requestState !== undefined && { requestState: asked.requestState }) };
  }
  return new ToolError('upstream_error', `The upstream MCP server of ${port.name} asked for input ${MAX_INPUT_ROUNDS} times before starting ${call.tool}; the call was given up.`);
}

async function followModern(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, created: ModernTask): Promise<Reached<CallToolResult>> {
  const taskId = created.taskId;
  const every = pollEvery(created.pollIntervalMs);
  const method = (name: string, extra: Record<string, unknown> = {}) => (client: Client, signal: AbortSignal, connection: Parameters<Parameters<UpstreamTaskPort['send']>[0]>[2]) =>
    connection.rawRequests(client).request(name, { taskId, ...extra, _meta: envelope(client, context) }, { signal });
  const cancel = () => cancelled(call, port, method('tasks/cancel'));
  /** The questions already answered, by the upstream's key: each is asked of the caller once. */
  const answeredKeys = new Set<string>();
  let told: string | undefined;
  for (;;) {
    if (context.signal.aborted) return cancel();
    const got = await port.send(method('tasks/get'));
    if (got instanceof ToolError) return got;
    if ('failed' in got) return context.signal.aborted ? cancel() : lostOr(got, call, port);
    const task = got.answer as unknown as ModernTask;
    switch (task.status) {
      case 'completed':
        return { answer: completeResult(task.result ?? {}), redacting: got.redacting };
      case 'failed':
        return new ToolError('upstream_error', `The upstream task for ${call.tool} failed: ${bounded(task.error?.message ?? task.statusMessage ?? 'it gave no reason', got.redacting)}.`);
      case 'cancelled':
        return cancelledUpstream(call, port, task.statusMessage, got.redacting);
      case 'input_required': {
        const open = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answeredKeys.has(key));
        if (open.length === 0) break;
        // Asked outside any request's deadline: the caller takes the time it takes.
        const inputResponses = await relayQuestions(call.tool, Object.fromEntries(open), context);
        open.forEach(([key]) => answeredKeys.add(key));
        const updated = await port.send(method('tasks/update', { inputResponses }));
        if (updated instanceof ToolError) return updated;
        if ('failed' in updated) return context.signal.aborted ? cancel() : lostOr(updated, call, port);
        continue;
      }
      case 'working':
        if (typeof task.statusMessage === 'string' && task.statusMessage !== told) {
          told = task.statusMessage;
          // A status that no longer lands (the caller's task ended meanwhile) changes nothing here.
          await context.task.status(bounded(task.statusMessage, got.redacting)).catch(() => undefined);
        }
        break;
      default:
        return new ToolError('upstream_invalid_response', `The upstream MCP server of ${port.name} answered tasks/get for ${call.tool} with a status that is not one of the extension's (${JSON.stringify(String((task as { status?: unknown }).status)).slice(0, 40)}). Try again; if it persists, the upstream MCP server is misbehaving.`);
    }
    await pause(every, context.signal);
  }
}

/**
 * The `_meta` a 2026-07-28 request carries: the revision, this client, and as its capabilities
 * what the caller can answer and the tasks extension (the upstream then answers with a task).
 */
function envelope(client: Client, context: RequestContext): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: client.getNegotiatedProtocolVersion(),
    [CLIENT_INFO_META_KEY]: CLIENT_INFO,
    [CLIENT_CAPABILITIES_META_KEY]: { ...answerableBy(context), extensions: { [TASKS_EXTENSION]: {} } },
  };
}

/** A complete 2026-07-28 result as the call's answer: the tool's result, its `resultType` aside. */
function completeResult(result: Record<string, unknown>): CallToolResult {
  const { resultType: _complete, ...rest } = result;
  return { content: [], ...rest } as CallToolResult;
}
