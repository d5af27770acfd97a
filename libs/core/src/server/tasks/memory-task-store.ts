import { EventEmitter } from 'node:events';
import type { TaskQuota, TaskQuotaRefusal } from './task-limits';
import { applyChange, isExpired, isTerminal, type TaskChange, type TaskRecord } from './task-record';
import type { TaskSignal, TaskStore } from './task-store';

/** How often expired tasks are swept out of the process. */
const SWEEP_MS = 60_000;

/** Tasks in this process: nothing to install; they end with it (one replica, stdio, tests). */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** The unfinished tasks, in all and by quota key, for the limits on how many there may be. */
  private readonly active = new Set<string>();
  private readonly activeByKey = new Map<string, Set<string>>();
  private readonly signals = new EventEmitter().setMaxListeners(0);
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  async create(record: TaskRecord, quota?: TaskQuota): Promise<TaskQuotaRefusal | undefined> {
    if (quota) {
      if (this.active.size >= quota.maxActive) return 'server';
      if ((this.activeByKey.get(quota.key)?.size ?? 0) >= quota.maxActivePerCaller) return 'caller';
    }
    this.tasks.set(record.taskId, record);
    this.active.add(record.taskId);
    if (record.quota !== undefined) {
      let mine = this.activeByKey.get(record.quota);
      if (!mine) this.activeByKey.set(record.quota, (mine = new Set()));
      mine.add(record.taskId);
    }
    return undefined;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.tasks.get(taskId);
    if (record && isExpired(record)) {
      this.forget(record);
      return undefined;
    }
    return record;
  }

  async update(taskId: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const record = await this.get(taskId);
    if (!record) return undefined;
    const next = applyChange(record, change);
    if (next === record) return next;
    this.tasks.set(taskId, next);
    if (isTerminal(next.status)) this.finished(next);
    this.signals.emit(taskId, { kind: 'changed' } satisfies TaskSignal);
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
    for (const record of this.tasks.values()) if (isExpired(record, now)) this.forget(record);
  }

  private forget(record: TaskRecord): void {
    this.tasks.delete(record.taskId);
    this.finished(record);
  }

  /** The task no longer counts against the limits. */
  private finished(record: TaskRecord): void {
    this.active.delete(record.taskId);
    if (record.quota === undefined) return;
    const mine = this.activeByKey.get(record.quota);
    mine?.delete(record.taskId);
    if (mine?.size === 0) this.activeByKey.delete(record.quota);
  }
}
