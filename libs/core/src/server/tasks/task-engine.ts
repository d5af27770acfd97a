import { randomBytes, randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import { unexpectedFailureOf } from '../tools/tool-call';
import { RunningTask, untilAborted, type TaskAsker, type TaskParking } from './running-task';
import { resolveTaskLimits, type TaskLimits, type TaskQuotaRefusal } from './task-limits';
import type { TaskOrigin } from './task-origin';
import { isOwnTask, taskCaller, type TaskCaller } from './task-owner';
import type { CallOrigin } from '../request/call-origin';
import type { TaskQueue } from './task-queue';
import { isTerminal, type TaskRecord } from './task-record';
import { TaskStop } from './task-stop';
import type { TaskStore } from './task-store';
import { MemoryTaskStore } from './memory-task-store';

/** The JSON-RPC "internal error" a task that failed ends with. */
const INTERNAL_ERROR = -32603;
/** How long a wait for a task's change goes without reading it again: its record may expire, which signals nothing. */
const RECHECK_MS = 5_000;

/** Runs a task's call from its record (tool, arguments, origin), reporting and asking through `task`. */
export type TaskRunner = (record: TaskRecord, task: RunningTask) => Promise<CallToolResult>;

/**
 * Creates tasks and runs them, one server definition's worth: the store says where their state
 * lives, the queue (if any) which process runs them. The work is the tool call itself, rebuilt
 * from the task's record and run through the same pipeline (argument checks, interceptors,
 * result validation, redaction) as a blocking call.
 */
export class TaskEngine {
  private readonly running = new Map<string, RunningTask>();
  private readonly askers = new Map<string, TaskAsker>();
  /** Set once a drain has run out: the idle wait stops. */
  private drainOver = false;
  /** Who waits for the last run here to end (`close`). */
  private idleWaiters: (() => void)[] = [];
  /** The status a task waiting for input shows where its client cannot be asked directly. */
  private readonly waitingNotes = new Map<string, string>();
  /** Gives a queued task's worker slot back, once: when it first waits for input, or when it ends. */
  private readonly releases = new Map<string, () => void>();
  private runner: TaskRunner | undefined;
  private closing = false;
  private taskLimits: TaskLimits;

  #store: TaskStore | undefined;

  constructor(
    store: TaskStore | undefined,
    readonly tools: ReadonlyMap<string, CompiledTool>,
    private readonly logger: Logger,
    private taskQueue?: TaskQueue,
    limits?: Partial<TaskLimits>,
  ) {
    this.taskLimits = resolveTaskLimits(limits);
    this.#store = store;
  }

  /** The bounds on these tasks (how many unfinished, in all and per caller; how long one waits for input). */
  get limits(): Readonly<TaskLimits> {
    return this.taskLimits;
  }

  /** Changes the bounds (an app's TASKS_* settings), before it serves. */
  useLimits(limits: Partial<TaskLimits>): void {
    this.taskLimits = resolveTaskLimits({ ...this.taskLimits, ...limits });
  }

  /** What a running task tells the engine while it waits for the client. */
  private readonly parking: TaskParking = {
    inputTimeoutMs: () => this.taskLimits.inputTimeoutMs,
    parked: (task) => {
      // Waiting for input, a task holds no worker slot: another queued task may run meanwhile.
      this.release(task.taskId);
      return this.closing ? TaskStop.shutdown() : undefined;
    },
  };

  /** Where the tasks live: chosen once, on first use (the process's own memory unless `placeIn` chose first). */
  private get taskStore(): TaskStore {
    return (this.#store ??= new MemoryTaskStore());
  }

  /**
   * Puts the tasks in a shared store and queue (an app with `REDIS_URL`): from then on any replica
   * answers for any task, and any worker runs it. Only before the engine is first used: tasks
   * already kept somewhere are never left behind by a switch.
   */
  placeIn(store: TaskStore, queue?: TaskQueue): void {
    if (this.#store) throw new Error(`The tasks' store is already in use (${this.#store.constructor.name}): choose where tasks live (REDIS_URL, or buildServer's taskStore) before the server serves.`);
    this.#store = store;
    this.taskQueue = queue;
  }

  /**
   * Stops taking tasks and waits up to `drainMs` for those running here. With a queue, one still
   * running then is given to another worker once its lock lapses (run again only if idempotent).
   */
  async close(drainMs = 30_000): Promise<void> {
    this.closing = true;
    // A task waiting for input could wait longer than any drain: it ends now, saying why.
    for (const task of this.running.values()) if (task.parked) task.stop(TaskStop.shutdown());
    const working = [...this.running.entries()].filter(([, task]) => !task.parked);
    // Which tasks hold the exit, and for how long at most: a quiet wait looked like a hang.
    if (working.length > 0) this.logger.info('waiting for running tasks before exit', { tasks: working.map(([taskId]) => `${taskId.slice(0, 8)}…`), atMostMs: drainMs });
    const drained = Promise.all([this.taskQueue?.close(), this.idle()]);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    // Past the drain, what still runs is stopped (its task ends failed, saying why), and nothing keeps waiting for it.
    for (const task of this.running.values()) task.stop(TaskStop.drainEnded(drainMs));
    this.drainOver = true;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    // A turn for the stopped runs to write why they ended, before the store closes.
    await new Promise((resolve) => setImmediate(resolve));
    await this.#store?.close();
  }

  /** Resolves once nothing runs here (each run's end checks), or the drain ran out. */
  private idle(): Promise<void> {
    if (this.running.size === 0 || this.drainOver) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The task `taskId` when `caller` owns it (asked with the credentials its own tool's toolset
   * declares); undefined when it is unknown, expired or another caller's, which nobody can tell apart.
   */
  async get(taskId: string, caller: CallOrigin): Promise<TaskRecord | undefined> {
    const record = await this.taskStore.get(taskId);
    return record && isOwnTask(record, caller, this.tools) ? record : undefined;
  }

  /** Hands `responses` to `caller`'s task while it waits for input (else they are dropped); the task as it was, or undefined when not theirs. */
  async update(taskId: string, caller: CallOrigin, responses: Record<string, unknown> | undefined): Promise<TaskRecord | undefined> {
    const record = await this.get(taskId, caller);
    if (record && responses && record.status === 'input_required') await this.taskStore.signal(taskId, { kind: 'answer', responses });
    return record;
  }

  /**
   * Cancels `caller`'s task: its status first (so every replica reads `cancelled` from then on),
   * then its run is told to stop, wherever it runs. Says how it went: cancelled (with the task
   * after), ended already (with its status), or not theirs.
   */
  async cancel(taskId: string, caller: CallOrigin): Promise<{ cancelled: TaskRecord } | { ended: TaskRecord } | undefined> {
    const record = await this.get(taskId, caller);
    if (!record) return undefined;
    if (isTerminal(record.status)) return { ended: record };
    const after = (await this.taskStore.update(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client.' })) ?? record;
    await this.taskStore.signal(taskId, { kind: 'cancel' });
    return { cancelled: after };
  }

  /**
   * `caller`'s tasks, newest first, at most `limit`: theirs under each toolset's credentials. None
   * where every anonymous caller is one owner (stateless HTTP with no token, credential or session): a task id is its bearer's secret.
   */
  async list(caller: CallOrigin, limit: number): Promise<TaskRecord[]> {
    const toolsets = new Set([...this.tools.values()].map((tool) => tool.toolset));
    const owners = new Set([...toolsets].map((toolset) => taskCaller(caller, toolset.credentialHeaders)).filter((found) => found.listable).map((found) => found.owner));
    const records = (await Promise.all([...owners].map((owner) => this.taskStore.list(owner, limit)))).flat();
    return records.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  }

  /**
   * Waits until `caller`'s task ends (or `signal` aborts) and gives it as it ended; undefined when
   * it is not theirs, or expired meanwhile. Woken by the store's `changed` signal, from any
   * replica, never by polling; while the task waits for input, `ask` gets it (to ask the client
   * on the request that waits) and the wait goes on once it returns.
   */
  async result(taskId: string, caller: CallOrigin, signal: AbortSignal, ask?: (record: TaskRecord) => Promise<void>): Promise<TaskRecord | undefined> {
    let current = await this.get(taskId, caller);
    while (current && !isTerminal(current.status)) {
      // Listening before acting: a change made while asking, or between the read and the wait, is never missed.
      const change = this.nextChange(taskId, signal);
      try {
        if (current.status === 'input_required' && ask) await ask(current);
        await change.happened;
      } finally {
        change.stop();
      }
      current = await this.taskStore.get(taskId);
    }
    return current;
  }

  /** Calls `onChange` whenever the task changes, on any replica (whose task it is, the caller checked first); returns how to stop. */
  watch(taskId: string, onChange: () => void): () => void {
    return this.taskStore.listen(taskId, (said) => void (said.kind === 'changed' && onChange()));
  }

  /** The next `changed` signal of the task; at the latest after RECHECK_MS (a record that expires says nothing). */
  private nextChange(taskId: string, signal: AbortSignal): { happened: Promise<void>; stop: () => void } {
    let stop = () => undefined as void;
    const happened = new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      const timer = setTimeout(resolve, RECHECK_MS);
      const unlisten = this.watch(taskId, resolve);
      signal.addEventListener('abort', onAbort, { once: true });
      stop = () => {
        clearTimeout(timer);
        unlisten();
        signal.removeEventListener('abort', onAbort);
      };
    });
    return { happened, stop };
  }

  /** How a task's call is made (set once by `buildServer`, which knows the call pipeline). */
  useRunner(runner: TaskRunner): void {
    this.runner = runner;
  }

  /**
   * Saves a new `working` task for `tool`; resolves once `tasks/get` finds it on any replica. When
   * the server or `caller` has as many unfinished tasks as the limits allow, nothing is saved and
   * the answer says which limit was reached.
   */
  async create(tool: CompiledTool, caller: TaskCaller, ttlMs: number, args: Record<string, unknown>, origin: TaskOrigin, gathered?: Record<string, unknown>): Promise<TaskRecord | TaskQuotaRefusal> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      // A UUID and 128 random bits: unguessable, so an id is never a way into another caller's task.
      taskId: `${randomUUID()}.${randomBytes(16).toString('base64url')}`,
      owner: caller.owner,
      quota: caller.quota,
      tool: tool.name,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: tool.task!.pollIntervalMs,
      arguments: args,
      origin,
      ...(gathered && Object.keys(gathered).length > 0 && { gathered }),
    };
    const { maxActive, maxActivePerCaller } = this.taskLimits;
    return (await this.taskStore.create(record, { key: caller.quota, maxActive, maxActivePerCaller })) ?? record;
  }

  /**
   * Starts a created task: queued for a worker, or run in this process when there is no queue.
   * `asker` sends its questions straight to the client, when the task runs here.
   */
  async start(record: TaskRecord, asker?: TaskAsker, waitingNote?: string): Promise<void> {
    if (this.taskQueue) return this.taskQueue.add(record.taskId);
    if (asker) this.askers.set(record.taskId, asker);
    if (waitingNote) this.waitingNotes.set(record.taskId, waitingNote);
    // Not awaited: the call is answered with the task at once. A fault of the store is logged, never thrown into nowhere.
    this.run(record.taskId).catch((error: unknown) => this.logger.error('task could not run', { tool: record.tool, error: error instanceof Error ? error.message : String(error) }));
  }

  /**
   * The result of a task that completes within `ms` (read from the store, so a run on another
   * worker counts too); undefined when it is still going, or ended otherwise (failed, cancelled).
   */
  completedWithin(taskId: string, ms: number): Promise<Record<string, unknown> | undefined> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (record: TaskRecord | undefined) => {
        if (settled) return;
        settled = true;
        stopListening();
        clearTimeout(timer);
        resolve(record?.status === 'completed' ? record.result : undefined);
      };
      // Woken by the store's `changed` signal (from any replica), not by polling it.
      const read = () => this.taskStore.get(taskId).then((record) => (!record || isTerminal(record.status) ? finish(record) : undefined), () => finish(undefined));
      const stopListening = this.watch(taskId, () => void read());
      const timer = setTimeout(() => finish(undefined), ms);
      void read();
    });
  }

  /** Makes this process one of the queue's workers. */
  work(): void {
    this.taskQueue?.work(
      (taskId) => this.run(taskId),
      async (taskId, reason) => {
        // Ends it unless it ended (a task that finished is never changed).
        await this.taskStore.update(taskId, {
          status: 'failed',
          statusMessage: 'The workers running it stopped before it finished, more than once; it was not run again.',
          error: { code: INTERNAL_ERROR, message: `The task's workers stopped before it finished (${reason}); it was not run again.` },
        });
      },
    );
  }

  /** How many tasks this process is running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Runs one task here and records how it ended; terminal states never change. A task that was
   * started before (its worker died) runs again only if its tool is declared idempotent. Resolves
   * when the run ends or first waits for input (then its queue slot is free; the run goes on here).
   */
  async run(taskId: string): Promise<void> {
    const record = await this.taskStore.get(taskId);
    if (!record || isTerminal(record.status) || this.running.has(taskId)) return;
    const tool = this.tools.get(record.tool);
    if ((record.attempts ?? 0) > 0 && !tool?.task?.idempotent) {
      await this.taskStore.update(taskId, {
        status: 'failed',
        statusMessage: `The worker running it stopped before it finished, and '${record.tool}' is not declared idempotent, so it was not run again.`,
        error: { code: INTERNAL_ERROR, message: `The task's worker stopped before it finished; '${record.tool}' is not idempotent, so it was not run again. Call the tool again if that is safe.` },
      });
      return;
    }
    await this.taskStore.update(taskId, { attempts: (record.attempts ?? 0) + 1 });
    // Listening before the tool runs: an answer or a cancellation is never sent before this replica hears it.
    await this.taskStore.ready?.();
    const task = new RunningTask(taskId, this.taskStore, this.parking, this.askers.get(taskId), record.gathered, this.waitingNotes.get(taskId));
    this.running.set(taskId, task);
    const released = new Promise<void>((resolve) => this.releases.set(taskId, resolve));
    // At its time to live the run stops and the task ends failed, a moment before the record expires so clients see why.
    const deadline = setTimeout(() => task.stop(TaskStop.expired(record.ttlMs)), Math.max(0, runDeadline(record) - Date.now())).unref();
    const ended = this.settle(record, task).finally(() => {
      clearTimeout(deadline);
      task.done();
      this.running.delete(taskId);
      this.askers.delete(taskId);
      this.waitingNotes.delete(taskId);
      this.release(taskId);
      if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
    // Once released, nobody awaits the run: a fault of the store while ending it is logged here, never thrown into nowhere.
    const logged = ended.catch((error: unknown) => this.logger.error('task could not be ended', { tool: record.tool, error: error instanceof Error ? error.message : String(error) }));
    await Promise.race([logged, released]);
  }

  private release(taskId: string): void {
    this.releases.get(taskId)?.();
    this.releases.delete(taskId);
  }

  private async settle(record: TaskRecord, task: RunningTask): Promise<void> {
    try {
      const call = this.runner!(record, task);
      // A tool that ignores its signal may still be running when the task ends: its outcome is dropped, never unhandled.
      call.catch(() => undefined);
      const result = await untilAborted(call, task.abort.signal);
      if (task.abort.signal.aborted) return;
      // The call logged its tool's throw already, under the id its result carries.
      const unexpected = unexpectedFailureOf(result);
      if (unexpected) return await this.failed(record, unexpected);
      // A ToolError is the tool's own answer: `completed`, with the isError result, as a direct call's.
      await this.taskStore.update(record.taskId, { status: 'completed', result: result as Record<string, unknown>, statusMessage: undefined });
    } catch (error) {
      if (task.abort.signal.aborted) return this.stopped(record, task.abort.signal.reason);
      // Something failed around the call (the store, an interceptor's bug).
      const correlationId = randomUUID();
      this.logger.error('task failed', { correlationId, tool: record.tool, error: error instanceof Error ? error.message : String(error), ...stackField(error) });
      await this.failed(record, correlationId);
    }
  }

  /** Ends a task whose tool failed unexpectedly: the client reads the correlation id, the log has the details under it. */
  private async failed(record: TaskRecord, correlationId: string): Promise<void> {
    await this.taskStore
      .update(record.taskId, {
        status: 'failed',
        statusMessage: `The tool '${record.tool}' failed unexpectedly; the server log has the details under correlation id ${correlationId}.`,
        error: { code: INTERNAL_ERROR, message: `The tool '${record.tool}' failed unexpectedly (correlation id ${correlationId}).` },
      })
      .catch(() => undefined);
  }

  /** A run the server stopped ends failed, saying why; one the client cancelled is cancelled already. */
  private async stopped(record: TaskRecord, reason: unknown): Promise<void> {
    if (!(reason instanceof TaskStop)) return;
    await this.taskStore
      .update(record.taskId, { status: 'failed', statusMessage: reason.statusMessage, error: { code: INTERNAL_ERROR, message: reason.statusMessage }, inputRequests: undefined })
      .catch((error: unknown) => this.logger.error('task could not be ended', { tool: record.tool, error: error instanceof Error ? error.message : String(error) }));
  }
}

/**
 * When a run must have ended: its time to live, less a margin (a tenth of it, at most a second)
 * in which the failed task can still be read before its record expires.
 */
export function runDeadline(record: TaskRecord): number {
  return Date.parse(record.createdAt) + record.ttlMs - Math.min(1_000, Math.floor(record.ttlMs / 10));
}
