import { specTypeSchemas, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { ToolError, type RequestContext } from '@toolsets/core';
import { redact } from './secret-redaction';
import type { UpstreamConnection } from './upstream-connection';
import { callQuestions } from './upstream-questions';

/** How a request to the upstream ended: its answer, what it failed with (and whether the deadline passed), or a `ToolError` before it was sent. */
export type Reached<T> = ToolError | { answer: T; redacting: Record<string, string> } | { failed: unknown; timedOut: boolean; redacting: Record<string, string> };

/** One request to the upstream on the call's connection: bounded by the deadline (or `timeoutMs`) and, unless `detached`, by the caller's cancellation. */
export type SendUpstream = <T>(request: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<T>, options?: { timeoutMs?: number; detached?: boolean }) => Promise<Reached<T>>;

/** The quickest and the slowest the upstream's task is polled, whatever it suggests. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5_000;
/** How long `tasks/result` may wait for a task that keeps no ttl (the upstream blocks it until the task ends). */
const NO_TTL_WAIT_MS = 3_600_000;
/** The most of an upstream task's status message passed on to the caller. */
const MAX_STATUS = 500;

/** The call to relay as an upstream task: which tool, with what, and whether the upstream runs it only as a task. */
export interface UpstreamTaskCall {
  tool: string;
  args?: object;
  task: 'optional' | 'required';
}

/** What `relayUpstreamTask` needs of its `McpUpstream`. */
export interface UpstreamTaskPort {
  /** The upstream's name, for messages. */
  name: string;
  send: SendUpstream;
  /** Refuses a call to a tool that drifted from the pinned contract. */
  drifted(connection: UpstreamConnection): ToolError | undefined;
  log(message: string, fields: Record<string, unknown>): void;
}

/**
 * Runs the call as a task of the upstream (2025-11-25 `params.task`) inside the caller's own task:
 * the upstream's status messages become the caller's task's, what the upstream task asks
 * (`related-task` requests, delivered while `tasks/result` waits) is asked of the caller, the
 * caller's `tasks/cancel` sends `tasks/cancel` upstream, and the upstream's result comes back to be
 * checked like any answer. The caller sees only its own task: the upstream's id never leaves here.
 * `undefined` when the upstream takes no task for this call (a 2026-07-28 upstream, or one without
 * task support for an optional tool): the call is then made as an ordinary one.
 */
export async function relayUpstreamTask(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, timeoutMs: number): Promise<Reached<CallToolResult> | undefined> {
  let release = () => undefined as void;
  let createdOn: Client | undefined;
  const created = await port.send(async (client, signal, connection) => {
    const drift = port.drifted(connection);
    if (drift) return drift;
    if (!takesTasks(client)) {
      if (call.task === 'optional') return undefined;
      return new ToolError('upstream_task_unsupported', `The upstream MCP server of ${port.name} runs ${call.tool} only as a task, but it no longer offers tasks on tools/call (or speaks a revision whose tasks this server does not relay), so the call was not made.`);
    }
    const answer = await client.request({ method: 'tools/call', params: { name: call.tool, arguments: { ...(call.args as Record<string, unknown> | undefined) }, task: {} } }, specTypeSchemas.CreateTaskResult, { signal, timeout: timeoutMs });
    release = connection.answerQuestionsOf(answer.task.taskId, callQuestions(call.tool, context));
    createdOn = client;
    return answer;
  });
  if (created instanceof ToolError || 'failed' in created) return created;
  if (created.answer === undefined) return undefined;
  if (created.answer instanceof ToolError) return created.answer;
  const task = created.answer.task;
  try {
    // The task lives on the connection that created it: a new one (the child restarted, the server came back) does not know it.
    const sameConnection: UpstreamTaskPort = {
      ...port,
      send: (request, options) => port.send((client, signal, connection) => (client === createdOn ? request(client, signal, connection) : Promise.reject(new TaskLost())), options),
    };
    return await follow(call, context, sameConnection, task.taskId, task.ttl ?? NO_TTL_WAIT_MS, clamp(task.pollInterval ?? 1_000));
  } finally {
    release();
  }
}

/** Polls the upstream task until it ends, passing its status on; asks for its result once it waits for input or has ended. */
async function follow(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, taskId: string, ttl: number, every: number): Promise<Reached<CallToolResult>> {
  let outcome: Promise<Reached<CallToolResult>> | undefined;
  let told: string | undefined;
  for (;;) {
    if (context.signal.aborted) return cancel(call, port, taskId);
    const got = await port.send((client, signal) => client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult, { signal }));
    if (got instanceof ToolError) return got;
    if ('failed' in got) return context.signal.aborted ? cancel(call, port, taskId) : lostOr(got, call, port);
    const { status, statusMessage } = got.answer;
    if (status === 'cancelled') return new ToolError('cancelled', `The upstream MCP server of ${port.name} cancelled its task for ${call.tool}${statusMessage ? `: ${bounded(statusMessage, got.redacting)}` : ''}.`);
    if (status === 'working' && statusMessage && statusMessage !== told) {
      told = statusMessage;
      // A status that no longer lands (the caller's task ended meanwhile) changes nothing here.
      await context.task.status(bounded(statusMessage, got.redacting)).catch(() => undefined);
    }
    // `tasks/result` waits until the task ends, and meanwhile carries what the task asks.
    if (status !== 'working') outcome ??= port.send((client, signal) => client.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.CallToolResult, { signal, timeout: ttl }), { timeoutMs: ttl });
    const ended = outcome ? await settledWithin(outcome, every) : (await pause(every, context.signal), undefined);
    if (ended) {
      if ('failed' in ended && context.signal.aborted) return cancel(call, port, taskId);
      if ('failed' in ended && status === 'failed') return new ToolError('upstream_error', `The upstream task for ${call.tool} failed: ${bounded(statusMessage ?? 'it gave no reason', ended.redacting)}.`);
      return lostOr(ended, call, port);
    }
  }
}

/** The connection a task was created on is gone, and the task with it. */
class TaskLost extends Error {}

/** What a request of the task failed with, or, when the connection it lived on is gone, a ToolError saying so. */
function lostOr<T>(reached: Reached<T>, call: UpstreamTaskCall, port: UpstreamTaskPort): Reached<T> {
  if (!('failed' in reached) || !(reached.failed instanceof TaskLost)) return reached;
  return new ToolError('upstream_unavailable', `The connection to the upstream MCP server of ${port.name} was lost during ${call.tool}, and its task with it (a new connection does not know it). Call the tool again.`);
}

/** The caller cancelled: so is the upstream task (`tasks/cancel`, sent whatever the caller's signal says). */
async function cancel(call: UpstreamTaskCall, port: UpstreamTaskPort, taskId: string): Promise<ToolError> {
  const sent = await port.send((client, signal) => client.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, { signal }), { detached: true });
  const status = sent instanceof ToolError || 'failed' in sent ? 'not confirmed' : sent.answer.status;
  port.log('upstream task cancelled with its caller\'s', { upstream: port.name, tool: call.tool, status });
  return new ToolError('cancelled', `The call to ${call.tool} was cancelled, and so was its task on the upstream MCP server.`);
}

/** Whether the upstream runs `tools/call` as a task: a 2025-11-25 server that says so (a 2026-07-28 one's tasks are an extension this does not relay). */
function takesTasks(client: Client): boolean {
  const modern = (client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28';
  return !modern && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/** The outcome if it settles within `ms`, else `undefined` (it goes on). */
function settledWithin<T>(outcome: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([outcome, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function clamp(ms: number): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, ms));
}

function bounded(text: string, secrets: Record<string, string>): string {
  const clean = redact(text, secrets).trim();
  return clean.length > MAX_STATUS ? `${clean.slice(0, MAX_STATUS)}…` : clean;
}
