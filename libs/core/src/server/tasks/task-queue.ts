/**
 * How tasks reach the process that runs them. Without one, a task runs in the process that
 * created it; `BullTaskQueue` (`REDIS_URL`) hands it to a worker on any replica, and gives a
 * task whose worker died to another.
 */
export interface TaskQueue {
  /** Hands the task to a worker; resolves once it is queued. */
  add(taskId: string): Promise<void>;
  /**
   * Makes this process a worker: `run` runs one task and resolves when it has ended; `lost` is told
   * of a task the queue gave up on without running it to its end (its workers kept dying).
   */
  work(run: (taskId: string) => Promise<void>, lost: (taskId: string, reason: string) => Promise<void>): void;
  /** Stops taking tasks, waits for those running here, and disconnects. */
  close(): Promise<void>;
}
