import type { TaskOrigin } from './task-origin';

/** The five states of a task; the last three are terminal and never change. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** The fields a task keeps only while it runs. */
export const RUNNING_ONLY = ['inputRequests', 'arguments', 'origin', 'gathered'] as const;

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A JSON-RPC error a failed task ends with. */
export interface TaskError {
  code: number;
  message: string;
}

/**
 * One task as a store keeps it: plain JSON, so any store (the process, Redis) holds it as is. It
 * never holds a secret: its owner is a hash, and its result went through the call's redaction.
 */
export interface TaskRecord {
  taskId: string;
  /** A hash of who created it (token subject and client, else its credentials, else the process). */
  owner: string;
  /** A hash of the caller its unfinished tasks are counted under (its owner, or its address where it has no identity). */
  quota?: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The outstanding requests to the client while `input_required`, by key. */
  inputRequests?: Record<string, unknown>;
  /** The `CallToolResult`, once completed. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, once failed. */
  error?: TaskError;
  /** The call's arguments and where it came from, kept while the task runs (any worker may run it) and removed when it ends. */
  arguments?: Record<string, unknown>;
  origin?: TaskOrigin;
  /** The answers the call gathered before it became a task (`askFirst`), by question key; its run reads them instead of asking again. */
  gathered?: Record<string, unknown>;
  /** How many times a worker has started it. */
  attempts?: number;
}

/** What a running task or a client may change: never the identity, never a terminal state. */
export type TaskChange = Partial<Pick<TaskRecord, 'status' | 'statusMessage' | 'inputRequests' | 'result' | 'error' | 'attempts'>>;

/** The record after `change`, or the record unchanged when it is already terminal. */
export function applyChange(record: TaskRecord, change: TaskChange, now: Date = new Date()): TaskRecord {
  if (isTerminal(record.status)) return record;
  const next: TaskRecord = { ...record, ...change, lastUpdatedAt: now.toISOString() };
  for (const key of Object.keys(change) as (keyof TaskChange)[]) if (change[key] === undefined) delete next[key];
  if (isTerminal(next.status)) {
    for (const key of RUNNING_ONLY) delete next[key];
  }
  return next;
}

/** Whether the task's time to live has passed. */
export function isExpired(record: TaskRecord, now = Date.now()): boolean {
  return Date.parse(record.createdAt) + record.ttlMs <= now;
}
