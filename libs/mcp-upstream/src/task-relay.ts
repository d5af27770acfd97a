import { setTimeout as wait } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/client';
import { ToolError } from '@toolsets/core';
import { redact } from './secret-redaction';
import type { UpstreamConnection } from './upstream-connection';

/** How a request to the upstream ended: its answer, what it failed with (and whether the deadline passed), or a `ToolError` before it was sent. */
export type Reached<T> = ToolError | { answer: T; redacting: Record<string, string> } | { failed: unknown; timedOut: boolean; timeoutMs: number; redacting: Record<string, string> };

/** One request to the upstream on the call's connection: bounded by the deadline (or `timeoutMs`) and, unless `detached`, by the caller's cancellation. */
export type SendUpstream = <T>(request: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<T>, options?: { timeoutMs?: number; detached?: boolean }) => Promise<Reached<T>>;

/** The call to relay as an upstream task: which tool, with what, and whether the upstream runs it only as a task. */
export interface UpstreamTaskCall {
  tool: string;
  args?: object;
  task: 'optional' | 'required';
}

/** What relaying an upstream task needs of its `McpUpstream`. */
export interface UpstreamTaskPort {
  /** The upstream's name, for messages. */
  name: string;
  send: SendUpstream;
  /** Refuses a call to a tool that drifted from the pinned contract. */
  drifted(connection: UpstreamConnection): ToolError | undefined;
  log(message: string, fields: Record<string, unknown>): void;
}

/** The quickest and the slowest the upstream's task is polled, whatever it suggests. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5_000;
/** The most of an upstream task's status message passed on to the caller. */
const MAX_STATUS = 500;

/** The upstream's suggested poll interval, kept between MIN_POLL_MS and MAX_POLL_MS (1 s when it suggests none). */
export function pollEvery(suggested: unknown): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, typeof suggested === 'number' && Number.isFinite(suggested) ? suggested : 1_000));
}

/** The connection a task was created on is gone, and the task with it. */
export class TaskLost extends Error {}

/** `port`, its requests sent only on `createdOn`'s connection: a new one (the child restarted, the server came back) does not know the task. */
export function onConnectionOf(port: UpstreamTaskPort, createdOn: Client): UpstreamTaskPort {
  return { ...port, send: (request, options) => port.send((client, signal, connection) => (client === createdOn ? request(client, signal, connection) : Promise.reject(new TaskLost())), options) };
}

/** What a request of the task failed with, or, when the connection it lived on is gone, a ToolError saying so. */
export function lostOr<T>(reached: Reached<T>, call: UpstreamTaskCall, port: UpstreamTaskPort): Reached<T> {
  if (!('failed' in reached) || !(reached.failed instanceof TaskLost)) return reached;
  return new ToolError('upstream_unavailable', `The connection to the upstream MCP server of ${port.name} was lost during ${call.tool}, and its task with it (a new connection does not know it). Call the tool again.`);
}

/** The caller cancelled: so is the upstream task (its cancel request, sent whatever the caller's signal says). */
export async function cancelled(call: UpstreamTaskCall, port: UpstreamTaskPort, cancel: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<{ status?: unknown }>): Promise<ToolError> {
  const sent = await port.send(cancel, { detached: true });
  const status = sent instanceof ToolError || 'failed' in sent ? 'not confirmed' : String(sent.answer.status ?? 'not said');
  port.log("upstream task cancelled with its caller's", { upstream: port.name, tool: call.tool, status });
  return new ToolError('cancelled', `The call to ${call.tool} was cancelled, and so was its task on the upstream MCP server.`);
}

/** The upstream cancelled its task on its own. */
export function cancelledUpstream(call: UpstreamTaskCall, port: UpstreamTaskPort, statusMessage: unknown, secrets: Record<string, string>): ToolError {
  return new ToolError('cancelled', `The upstream MCP server of ${port.name} cancelled its task for ${call.tool}${typeof statusMessage === 'string' && statusMessage ? `: ${bounded(statusMessage, secrets)}` : ''}.`);
}

/** The outcome if it settles within `ms`, else `undefined` (it goes on). */
export function settledWithin<T>(outcome: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([outcome, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]).finally(() => clearTimeout(timer));
}

/** Waits `ms`, or less when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return wait(ms, undefined, { signal }).catch(() => undefined);
}

/** An upstream's status text as the caller's task shows it: bounded, without the credentials the upstream was sent. */
export function bounded(text: string, secrets: Record<string, string>): string {
  const clean = redact(text, secrets).trim();
  return clean.length > MAX_STATUS ? `${clean.slice(0, MAX_STATUS)}…` : clean;
}
