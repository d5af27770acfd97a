import { specTypeSchemas, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { ToolError, type RequestContext } from '@toolsets/core';
import { bounded, cancelled, cancelledUpstream, lostOr, onConnectionOf, pause, pollEvery, settledWithin, type Reached, type UpstreamTaskCall, type UpstreamTaskPort } from './task-relay';
import { callQuestions } from './upstream-questions';
import { relayModernTask, takesModernTasks } from './upstream-task-modern';

/** How long `tasks/result` may wait for a task that keeps no ttl (the upstream blocks it until the task ends). */
const NO_TTL_WAIT_MS = 3_600_000;

/**
 * Runs the call as a task of the upstream inside the caller's own task: the upstream's status
 * messages become the caller's task's, what the upstream task asks is asked of the caller, the
 * caller's `tasks/cancel` cancels the upstream's task, and the upstream's result comes back to be
 * checked like any answer. The caller sees only its own task: the upstream's id never leaves here.
 * A 2025-11-25 upstream runs it with `params.task` (below); a 2026-07-28 one with the tasks
 * extension (`relayModernTask`). `undefined` when the upstream takes no task for an optional tool:
 * the call is then made as an ordinary one.
 */
export async function relayUpstreamTask(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, timeoutMs: number): Promise<Reached<CallToolResult> | undefined> {
  // Which tasks the upstream speaks, from its connection (connecting if need be).
  const speaks = await port.send(async (client, _signal, connection) => port.drifted(connection) ?? (takesModernTasks(client) ? 'modern' : takesLegacyTasks(client) ? 'legacy' : undefined));
  if (speaks instanceof ToolError || 'failed' in speaks) return speaks;
  if (speaks.answer instanceof ToolError) return speaks.answer;
  if (speaks.answer === 'modern') return relayModernTask(call, context, port, timeoutMs);
  if (speaks.answer === 'legacy') return relayLegacyTask(call, context, port, timeoutMs);
  if (call.task === 'optional') return undefined;
  return new ToolError('upstream_task_unsupported', `The upstream MCP server of ${port.name} runs ${call.tool} only as a task, but it no longer offers tasks on tools/call, so the call was not made.`);
}

/** Whether a 2025-11-25 upstream runs `tools/call` as a task (its `tasks.requests.tools.call` capability). */
function takesLegacyTasks(client: Client): boolean {
  return (client.getNegotiatedProtocolVersion() ?? '') < '2026-07-28' && client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * A 2025-11-25 upstream's task (`tools/call` with `params.task`): polled with `tasks/get`; once it
 * waits for input or has ended, `tasks/result`, which waits until the end and meanwhile carries
 * what the task asks (requests tied to it by `related-task`, answered through the caller).
 */
async function relayLegacyTask(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, timeoutMs: number): Promise<Reached<CallToolResult>> {
  let release = () => undefined as void;
  let createdOn: Client | undefined;
  const created = await port.send(async (client, signal, connection) => {
    const answer = await client.request({ method: 'tools/call', params: { name: call.tool, arguments: { ...(call.args as Record<string, unknown> | undefined) }, task: {} } }, specTypeSchemas.CreateTaskResult, { signal, timeout: timeoutMs });
    release = connection.answerQuestionsOf(answer.task.taskId, callQuestions(call.tool, context));
    createdOn = client;
    return answer;
  });
  if (created instanceof ToolError || 'failed' in created) return created;
  const task = created.answer.task;
  try {
    return await followLegacy(call, context, onConnectionOf(port, createdOn!), task.taskId, task.ttl ?? NO_TTL_WAIT_MS, pollEvery(task.pollInterval));
  } finally {
    release();
  }
}

async function followLegacy(call: UpstreamTaskCall, context: RequestContext, port: UpstreamTaskPort, taskId: string, ttl: number, every: number): Promise<Reached<CallToolResult>> {
  const cancel = () => cancelled(call, port, (client, signal) => client.request({ method: 'tasks/cancel', params: { taskId } }, specTypeSchemas.CancelTaskResult, { signal }));
  let outcome: Promise<Reached<CallToolResult>> | undefined;
  let told: string | undefined;
  for (;;) {
    if (context.signal.aborted) return cancel();
    const got = await port.send((client, signal) => client.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult, { signal }));
    if (got instanceof ToolError) return got;
    if ('failed' in got) return context.signal.aborted ? cancel() : lostOr(got, call, port);
    const { status, statusMessage } = got.answer;
    if (status === 'cancelled') return cancelledUpstream(call, port, statusMessage, got.redacting);
    if (status === 'working' && statusMessage && statusMessage !== told) {
      told = statusMessage;
      // A status that no longer lands (the caller's task ended meanwhile) changes nothing here.
      await context.task.status(bounded(statusMessage, got.redacting)).catch(() => undefined);
    }
    // `tasks/result` waits until the task ends, and meanwhile carries what the task asks.
    if (status !== 'working') outcome ??= port.send((client, signal) => client.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.CallToolResult, { signal, timeout: ttl }), { timeoutMs: ttl });
    const ended = outcome ? await settledWithin(outcome, every) : (await pause(every, context.signal), undefined);
    if (ended) {
      if ('failed' in ended && context.signal.aborted) return cancel();
      if ('failed' in ended && status === 'failed') return new ToolError('upstream_error', `The upstream task for ${call.tool} failed: ${bounded(statusMessage ?? 'it gave no reason', ended.redacting)}.`);
      return lostOr(ended, call, port);
    }
  }
}
