import type { TaskQuota, TaskQuotaRefusal } from './task-limits';
import type { TaskChange, TaskRecord } from './task-record';

/**
 * What is said about a task, on every replica: to its worker, the client answered input requests
 * or cancelled it; to anyone listening for its status (`subscriptions/listen` with `taskIds`), it changed.
 */
export type TaskSignal = { kind: 'answer'; responses: Record<string, unknown> } | { kind: 'cancel' } | { kind: 'changed' };

/**
 * Where tasks live. `MemoryTaskStore` (the default) keeps them in the process; `RedisTaskStore`
 * (`REDIS_URL`) in Redis, so any replica can answer for a task another one created.
 */
export interface TaskStore {
  /**
   * Saves a new task; once it resolves, `get` finds it on every replica. With `quota`, it is saved
   * only while fewer unfinished tasks than its limits exist, in all and under its key (checked and
   * saved in one step); otherwise nothing is saved and the answer names the limit reached.
   */
  create(record: TaskRecord, quota?: TaskQuota): Promise<TaskQuotaRefusal | undefined>;
  /** The task, or undefined when it is unknown or its time to live has passed. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies `change` unless the task is terminal, and signals `changed`; the record after, or undefined when unknown. */
  update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** The tasks of one owner, newest first (at most `limit`). */
  list(owner: string, limit: number): Promise<TaskRecord[]>;
  /** Tells the task's worker, wherever it runs. */
  signal(taskId: string, signal: TaskSignal): Promise<void>;
  /** Listens for the signals of a task this process runs; returns how to stop. */
  listen(taskId: string, listener: (signal: TaskSignal) => void): () => void;
  /** Resolves once `listen` hears signals (a shared store subscribes first); absent when at once. */
  ready?(): Promise<void>;
  close(): Promise<void>;
}
