/**
 * How a tool runs as an MCP task (the `io.modelcontextprotocol/tasks` extension, and the
 * 2025-11-25 revision's task-augmented `tools/call`).
 *
 * - `optional`: a client that declared task support gets a task handle it polls; any other client
 *   gets the ordinary blocking result.
 * - `required`: only as a task; a client without task support is refused with the protocol's
 *   "missing required client capability" error.
 */
export type TaskSupport = 'optional' | 'required';

export interface ToolTaskOptions {
  support: TaskSupport;
  /** How long a task and its result are kept after it is created, in milliseconds (default one hour). */
  ttlMs?: number;
  /** How often clients are asked to poll `tasks/get`, in milliseconds (default 1,000). */
  pollIntervalMs?: number;
  /**
   * Running the tool twice with the same arguments does no harm. With a shared task store
   * (`REDIS_URL`), a task whose worker died is then run again on another; otherwise it ends `failed`.
   */
  idempotent?: boolean;
  /**
   * The tool asks its questions (`context.elicit`, `sample`, `roots`) in the request, before it
   * becomes a task, and calls `task.start()` once it has the answers: a 2026-07-28 client answers
   * through `input_required` rounds, then gets the task. The task's run starts the method again
   * with those answers (so keep what comes before `task.start()` free of side effects).
   */
  askFirst?: boolean;
  /**
   * How long, in milliseconds, a 2026-07-28 call waits for its task to finish before it answers
   * with the task: a task done by then answers with the ordinary result (the extension allows it),
   * so a quick run costs the client no poll. Default 0 (always a task); less than `pollIntervalMs`.
   */
  inlineMs?: number;
}

/** `@Tool({ task })`: the support alone, or the options. */
export type ToolTaskDeclaration = TaskSupport | ToolTaskOptions;

/** A tool's task behaviour, checked by the gate, defaults filled in. */
export interface CompiledTaskOptions {
  readonly support: TaskSupport;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly idempotent: boolean;
  readonly askFirst: boolean;
  readonly inlineMs: number;
}

export const DEFAULT_TASK_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** The longest TTL a task may ask for: thirty days. */
export const MAX_TASK_TTL_MS = 30 * 24 * 60 * 60 * 1000;
