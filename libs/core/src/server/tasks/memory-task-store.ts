import { EventEmitter } from 'node:events';
import { applyChange, isExpired, type TaskChange, type TaskRecord } from './task-record';
import type { TaskSignal, TaskStore } from './task-store';

/** How often expired tasks are swept out of the process. */
const SWEEP_MS = 60_000;

/** Tasks in this process: nothing to install; they end with it (one replica, stdio, tests). */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly signals = new EventEmitter().setMaxListeners(0);
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  async create(record: TaskRecord): Promise<void> {
    this.tasks.set(record.taskId, record);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.tasks.get(taskId);
    if (record && isExpired(record)) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return record;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const record = await this.get(taskId);
    if (!record) return undefined;
    const next = applyChange(record, change);
    this.tasks.set(taskId, next);
    return next;
  }

  async list(owner: string, limit: number): Promise<TaskRecord[]> {
    const mine = [...this.tasks.values()].filter((record) => record.owner === owner && !isExpired(record));
    return mine.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, limit);
  }

  async signal(taskId: string, signal: TaskSignal): Promise<void> {
    this.signals.emit(taskId, signal);
  }

  listen(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    this.signals.on(taskId, listener);
    return () => this.signals.off(taskId, listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [taskId, record] of this.tasks) if (isExpired(record, now)) this.tasks.delete(taskId);
  }
}
