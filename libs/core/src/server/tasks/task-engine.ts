import { randomBytes, randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import { UnexpectedToolFailure } from '../tools/tool-call';
import { RunningTask, type TaskAsker } from './running-task';
import type { TaskOrigin } from './task-origin';
import type { TaskQueue } from './task-queue';
import { isTerminal, type TaskRecord } from './task-record';
import type { TaskStore } from './task-store';

/** The JSON-RPC "internal error" a task that failed ends with. */
const INTERNAL_ERROR = -32603;

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
  private runner: TaskRunner | undefined;

  constructor(
    private taskStore: TaskStore,
    private readonly tools: ReadonlyMap<string, CompiledTool>,
    private readonly logger: Logger,
    private taskQueue?: TaskQueue,
  ) {}

  /** Where the tasks live. */
  get store(): TaskStore {
    return this.taskStore;
  }

  /** Which process runs them: absent when each runs where it was created. */
  get queue(): TaskQueue | undefined {
    return this.taskQueue;
  }

  /**
   * Moves the tasks to a shared store and queue (an app with `REDIS_URL`), before it serves: from
   * then on any replica answers for any task, and any worker runs it.
   */
  share(store: TaskStore, queue?: TaskQueue): void {
    if (this.running.size > 0) throw new Error('Tasks are running: share the store before serving.');
    void this.taskStore.close();
    this.taskStore = store;
    this.taskQueue = queue;
  }

  /**
   * Stops taking tasks and waits up to `drainMs` for those running here. With a queue, one still
   * running then is given to another worker once its lock lapses (run again only if idempotent).
   */
  async close(drainMs = 30_000): Promise<void> {
    const drained = this.taskQueue ? this.taskQueue.close() : this.idle();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    await this.taskStore.close();
  }

  private async idle(): Promise<void> {
    while (this.running.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /** How a task's call is made (set once by `buildServer`, which knows the call pipeline). */
  useRunner(runner: TaskRunner): void {
    this.runner = runner;
  }

  /** Saves a new `working` task for `tool`; resolves once `tasks/get` finds it on any replica. */
  async create(tool: CompiledTool, owner: string, ttlMs: number, args: Record<string, unknown>, origin: TaskOrigin): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      // A UUID and 128 random bits: unguessable, so an id is never a way into another caller's task.
      taskId: `${randomUUID()}.${randomBytes(16).toString('base64url')}`,
      owner,
      tool: tool.name,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: tool.task!.pollIntervalMs,
      arguments: args,
      origin,
    };
    await this.taskStore.create(record);
    return record;
  }

  /**
   * Starts a created task: queued for a worker, or run in this process when there is no queue.
   * `asker` sends its questions straight to the client, when the task runs here.
   */
  async start(record: TaskRecord, asker?: TaskAsker): Promise<void> {
    if (this.taskQueue) return this.taskQueue.add(record.taskId);
    if (asker) this.askers.set(record.taskId, asker);
    // Not awaited: the call is answered with the task at once. A fault of the store is logged, never thrown into nowhere.
    this.run(record.taskId).catch((error: unknown) => this.logger.error('task could not run', { tool: record.tool, error: error instanceof Error ? error.message : String(error) }));
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
   * started before (its worker died) runs again only if its tool is declared idempotent.
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
    const task = new RunningTask(taskId, this.taskStore, this.askers.get(taskId));
    this.running.set(taskId, task);
    try {
      await this.settle(record, task);
    } finally {
      task.done();
      this.running.delete(taskId);
      this.askers.delete(taskId);
    }
  }

  private async settle(record: TaskRecord, task: RunningTask): Promise<void> {
    try {
      const result = await this.runner!(record, task);
      if (task.abort.signal.aborted) return;
      // A ToolError is the tool's own answer: `completed`, with the isError result, as a direct call's.
      await this.taskStore.update(record.taskId, { status: 'completed', result: result as Record<string, unknown>, statusMessage: undefined });
    } catch (error) {
      if (task.abort.signal.aborted) return;
      // The call logged its tool's throw already; anything else failed around it (the store, an interceptor's bug).
      const correlationId = error instanceof UnexpectedToolFailure ? error.correlationId : randomUUID();
      if (!(error instanceof UnexpectedToolFailure)) this.logger.error('task failed', { correlationId, tool: record.tool, error: error instanceof Error ? error.message : String(error), ...stackField(error) });
      await this.taskStore
        .update(record.taskId, {
          status: 'failed',
          statusMessage: `The tool '${record.tool}' failed unexpectedly; the server log has the details under correlation id ${correlationId}.`,
          error: { code: INTERNAL_ERROR, message: `The tool '${record.tool}' failed unexpectedly (correlation id ${correlationId}).` },
        })
        .catch(() => undefined);
    }
  }
}
