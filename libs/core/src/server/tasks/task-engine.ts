import { randomBytes, randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import { UnexpectedToolFailure } from '../tools/tool-call';
import { RunningTask } from './running-task';
import type { TaskRecord } from './task-record';
import type { TaskStore } from './task-store';

/** The JSON-RPC "internal error" a task that failed unexpectedly ends with. */
const INTERNAL_ERROR = -32603;

/**
 * Creates tasks and runs them in this process, one server definition's worth: the store says
 * where their state lives; the work is the tool call itself, through the same pipeline (argument
 * checks, interceptors, result validation and projection) as a blocking call.
 */
export class TaskEngine {
  private readonly running = new Map<string, RunningTask>();

  constructor(
    readonly store: TaskStore,
    private readonly logger: Logger,
  ) {}

  /** Saves a new `working` task for `tool`; resolves once `tasks/get` finds it. */
  async create(tool: CompiledTool, owner: string, ttlMs: number, args?: Record<string, unknown>): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      // 128 random bits beside a UUID: unguessable, so an id is never a way into another caller's task.
      taskId: `${randomUUID()}.${randomBytes(16).toString('base64url')}`,
      owner,
      tool: tool.name,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: tool.task!.pollIntervalMs,
      ...(args && { arguments: args }),
    };
    await this.store.create(record);
    return record;
  }

  /** Runs `work` for the task in the background and records how it ended; terminal states never change. */
  run(record: TaskRecord, work: (task: RunningTask) => Promise<CallToolResult>): void {
    const task = new RunningTask(record.taskId, this.store);
    this.running.set(record.taskId, task);
    void this.settle(record, task, work).finally(() => {
      task.done();
      this.running.delete(record.taskId);
    });
  }

  /** How many tasks this process is running now. */
  get active(): number {
    return this.running.size;
  }

  private async settle(record: TaskRecord, task: RunningTask, work: (task: RunningTask) => Promise<CallToolResult>): Promise<void> {
    try {
      const result = await work(task);
      if (task.abort.signal.aborted) return;
      // A ToolError is the tool's own answer: `completed`, with the isError result, as a direct call's.
      await this.store.update(record.taskId, { status: 'completed', result: result as Record<string, unknown>, statusMessage: undefined });
    } catch (error) {
      if (task.abort.signal.aborted) return;
      // The call logged its tool's throw already; anything else failed around it (the store, an interceptor's bug).
      const correlationId = error instanceof UnexpectedToolFailure ? error.correlationId : randomUUID();
      if (!(error instanceof UnexpectedToolFailure)) this.logger.error('task failed', { correlationId, tool: record.tool, error: error instanceof Error ? error.message : String(error), ...stackField(error) });
      await this.store
        .update(record.taskId, {
          status: 'failed',
          statusMessage: `The tool '${record.tool}' failed unexpectedly; the server log has the details under correlation id ${correlationId}.`,
          error: { code: INTERNAL_ERROR, message: `The tool '${record.tool}' failed unexpectedly (correlation id ${correlationId}).` },
        })
        .catch(() => undefined);
    }
  }
}
