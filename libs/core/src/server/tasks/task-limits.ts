/**
 * The bounds on a server's tasks (`buildServer({ taskLimits })`, or TASKS_MAX,
 * TASKS_MAX_PER_CALLER and TASKS_INPUT_TIMEOUT_MS in an app): how many may be unfinished at once,
 * in all and per caller, and how long one may wait for the client's answer.
 */
export interface TaskLimits {
  /** Unfinished tasks of the server at once, in its store (all replicas share a Redis store's count). */
  maxActive: number;
  /** Unfinished tasks of one caller: a token's subject, else its credentials, else its session or address. */
  maxActivePerCaller: number;
  /** How long a task may wait in `input_required` before it ends `failed`, in milliseconds. */
  inputTimeoutMs: number;
}

export const DEFAULT_TASK_LIMITS: Readonly<TaskLimits> = Object.freeze({
  maxActive: 1_000,
  maxActivePerCaller: 32,
  inputTimeoutMs: 10 * 60_000,
});

/** The defaults with `overrides` on top; throws on a value that is not a positive whole number. */
export function resolveTaskLimits(overrides: Partial<TaskLimits> = {}): TaskLimits {
  const limits = { ...DEFAULT_TASK_LIMITS };
  for (const [key, value] of Object.entries(overrides) as [keyof TaskLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Task limit '${key}' must be a whole number of at least 1, got ${JSON.stringify(value)}.`);
    limits[key] = value;
  }
  return limits;
}

/** Which bound a new task would pass: the server's, or its caller's. */
export type TaskQuotaRefusal = 'server' | 'caller';

/** What a store checks when it saves a new task: `key` names the caller whose tasks are counted together. */
export interface TaskQuota {
  key: string;
  maxActive: number;
  maxActivePerCaller: number;
}
