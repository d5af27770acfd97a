import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger';
import { loadRedisPackages, redisConnection } from './redis-packages';
import type { TaskQueue } from './task-queue';

export interface BullTaskQueueOptions {
  /** The queue's name in Redis: one per server, shared by its replicas. */
  name: string;
  /** Tasks one worker process runs at once (default 16). */
  concurrency?: number;
  /**
   * How long a worker holds a task without renewing its lock (default 30,000 ms): a worker that
   * died is noticed about this long after, and its task given to another.
   */
  lockMs?: number;
  logger?: Logger;
}

/**
 * Tasks on a BullMQ queue in Redis: any replica's worker takes a queued task; a worker that
 * stops renewing its lock (it died) has its task taken up by another once, where the engine runs
 * it again only for a tool declared idempotent. Finished jobs are removed at once: the task's own
 * record holds its outcome.
 */
export class BullTaskQueue implements TaskQueue {
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private readonly connections: Redis[] = [];

  constructor(
    private readonly url: string,
    private readonly options: BullTaskQueueOptions,
  ) {
    const { bullmq } = loadRedisPackages();
    this.queue = new bullmq.Queue(options.name, { connection: this.connection(), defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
  }

  async add(taskId: string): Promise<void> {
    // The task id is the job id: one job per task, however often it is added.
    await this.queue.add('task', { taskId }, { jobId: taskId });
  }

  work(run: (taskId: string) => Promise<void>, lost: (taskId: string, reason: string) => Promise<void>): void {
    if (this.worker) return;
    const { bullmq } = loadRedisPackages();
    const lockDuration = this.options.lockMs ?? 30_000;
    this.worker = new bullmq.Worker(this.options.name, async (job) => run((job.data as { taskId: string }).taskId), {
      connection: this.connection(),
      concurrency: this.options.concurrency ?? 16,
      lockDuration,
      stalledInterval: Math.max(500, Math.floor(lockDuration / 2)),
      maxStalledCount: 1,
    });
    this.worker.on('error', (error) => this.options.logger?.warn('task queue error', { error: error.message }));
    // A job BullMQ fails itself (stalled more than once: a second worker died with it) never reached its end in `run`.
    this.worker.on('failed', (job, error) => {
      const taskId = (job?.data as { taskId?: string } | undefined)?.taskId;
      if (taskId) void lost(taskId, error.message).catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    await Promise.allSettled(this.connections.map((connection) => connection.quit()));
  }

  private connection(): Redis {
    const connection = redisConnection(this.url);
    this.connections.push(connection);
    return connection;
  }
}
