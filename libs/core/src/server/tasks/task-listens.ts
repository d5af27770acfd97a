import type { CallOrigin } from '../request/call-origin';
import type { TaskEngine } from './task-engine';
import { taskCaller } from './task-owner';
import { isTerminal, type TaskRecord } from './task-record';
import { v2Task } from './task-wire';

/** How many task listens one caller may hold open, and the server in all, and for how long each. */
export interface TaskListenLimits {
  perCaller: number;
  total: number;
  maxMs: number;
}

export const DEFAULT_TASK_LISTEN_LIMITS: TaskListenLimits = { perCaller: 10, total: 1_000, maxMs: 10 * 60_000 };
/** The most task ids one listen may name. */
export const MAX_LISTENED_TASKS = 100;

/** Where one listen's notifications go, and how it ends (gracefully: every task it follows ended, or its time ran out). */
export interface TaskListenOutlet {
  notify(task: Record<string, unknown>): void;
  end(): void;
}

/** One open listen: the task ids it follows (the caller's own, among those asked), and how to stop it. */
export interface OpenTaskListen {
  readonly taskIds: readonly string[];
  stop(): void;
}

/**
 * The `subscriptions/listen` streams that follow tasks (`notifications: { taskIds }`): each
 * follows the caller's own tasks among those it names (others are left out of its
 * acknowledgement, as an unknown id would be) and gets a `notifications/tasks` with the whole task,
 * as `tasks/get` shows it, now and at every change, from whichever replica changed it (the store
 * signals `changed` on every replica). It ends when every task it follows has ended, or at `maxMs`.
 * Bounded: `perCaller` open per caller, `total` in all.
 */
export class TaskListens {
  readonly #byCaller = new Map<string, number>();
  #open = 0;

  constructor(
    private readonly engine: TaskEngine,
    private readonly limits: TaskListenLimits = DEFAULT_TASK_LISTEN_LIMITS,
  ) {}

  /** Opens a listen for `origin`'s caller, or says which limit refused it. */
  async open(origin: CallOrigin, taskIds: readonly string[], outlet: TaskListenOutlet): Promise<OpenTaskListen | 'caller' | 'server'> {
    const caller = taskCaller(origin, []).quota;
    if (this.#open >= this.limits.total) return 'server';
    if ((this.#byCaller.get(caller) ?? 0) >= this.limits.perCaller) return 'caller';
    this.count(caller, +1);
    let records: (TaskRecord | undefined)[];
    try {
      // Another caller's task is left out as an unknown one is.
      records = await Promise.all([...new Set(taskIds)].slice(0, MAX_LISTENED_TASKS).map((taskId) => this.engine.get(taskId, origin)));
    } catch (error) {
      // A store that cannot be read opens nothing: the listen is not counted.
      this.count(caller, -1);
      throw error;
    }
    const own = records.filter((record): record is TaskRecord => record !== undefined);
    const following = new Set(own.filter((record) => !isTerminal(record.status)).map((record) => record.taskId));
    let stopped = false;
    const unlisten: (() => void)[] = [];
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      for (const off of unlisten) off();
      this.count(caller, -1);
    };
    const finish = () => {
      stop();
      outlet.end();
    };
    const timer = setTimeout(finish, this.limits.maxMs).unref();
    for (const taskId of following) {
      unlisten.push(this.engine.watch(taskId, () => void (!stopped && this.sendCurrent(taskId, origin, following, outlet, finish))));
    }
    // The state each task is in now, so a change between the client's last poll and this listen is never missed.
    queueMicrotask(() => {
      for (const record of own) outlet.notify(v2Task(record));
      if (following.size === 0) finish();
    });
    return { taskIds: own.map((record) => record.taskId), stop };
  }

  private async sendCurrent(taskId: string, origin: CallOrigin, following: Set<string>, outlet: TaskListenOutlet, finish: () => void): Promise<void> {
    const record = await this.engine.get(taskId, origin).catch(() => undefined);
    if (!record || !following.has(taskId)) return;
    outlet.notify(v2Task(record));
    if (!isTerminal(record.status)) return;
    following.delete(taskId);
    if (following.size === 0) finish();
  }

  private count(caller: string, by: number): void {
    this.#open += by;
    const next = (this.#byCaller.get(caller) ?? 0) + by;
    if (next > 0) this.#byCaller.set(caller, next);
    else this.#byCaller.delete(caller);
  }
}
