import type { ServerDefinition } from '../server/build-server';
import { BullTaskQueue } from '../server/tasks/bull-task-queue';
import { RedisTaskStore } from '../server/tasks/redis-task-store';
import { RedisRateLimits, useSharedRateLimits } from '../interceptors/shared-rate-limits';
import { RedisCache, useSharedCache } from '../interceptors/shared-cache';

/** The tasks of an app's servers, on shared infrastructure or in the process. */
export interface AppTasks {
  /** Where they live, for the banner and the log (`redis://host:port`, credentials left out). */
  readonly where: string;
  /** Stops taking tasks and waits (up to TASKS_DRAIN_MS) for those running here. */
  close(): Promise<void>;
}

/**
 * With `REDIS_URL`, each server's tasks move to Redis (state) and a BullMQ queue (execution), so
 * any replica answers for any task and runs any; every process is a worker too, unless
 * `TASKS_WORKER=off` (then `--worker` processes run them). Without it they
 * stay in the process. Servers without task tools are left alone.
 */
export function appTasks(servers: readonly ServerDefinition[], env: NodeJS.ProcessEnv): AppTasks | undefined {
  const engines = servers.filter((server) => server.tasks !== undefined);
  if (engines.length === 0) return undefined;
  const url = env['REDIS_URL'];
  const drainMs = whole(env, 'TASKS_DRAIN_MS', 30_000);
  const limits = { maxActive: optionalWhole(env, 'TASKS_MAX'), maxActivePerCaller: optionalWhole(env, 'TASKS_MAX_PER_CALLER'), inputTimeoutMs: optionalWhole(env, 'TASKS_INPUT_TIMEOUT_MS') };
  for (const server of engines) server.tasks!.useLimits(limits);
  if (url) {
    const lockMs = whole(env, 'TASKS_LOCK_MS', 30_000);
    const concurrency = whole(env, 'TASKS_CONCURRENCY', 16);
    for (const server of engines) {
      server.tasks!.placeIn(RedisTaskStore.connect(url, `toolsets:tasks:${server.name}`), new BullTaskQueue(url, { name: `toolsets-tasks-${server.name}`, lockMs, concurrency, logger: server.logger }));
      // TASKS_WORKER=off: this replica serves and queues, and `--worker` replicas run the tasks.
      if (env['TASKS_WORKER'] !== 'off') server.tasks!.work();
    }
  }
  return {
    where: url ? redisLocation(url) : 'this process',
    close: async () => {
      await Promise.all(engines.map((server) => server.tasks!.close(drainMs)));
    },
  };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return optionalWhole(env, name) ?? fallback;
}

function optionalWhole(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Not starting: ${name} must be a whole number of at least 1, got ${JSON.stringify(text)}.`);
  return value;
}

/** `redis://host:port/db` without a user or password. */
function redisLocation(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    throw new Error('Not starting: REDIS_URL is not a URL; give redis://host:port (or rediss:// for TLS), with user:password@ if it needs them.');
  }
}

/**
 * With `REDIS_URL`, every `RateLimit` keeps its buckets in Redis, so a limit of N per minute holds
 * across all replicas, and every `Cache` shares its answers there, so one computed on a replica is
 * served by the others; returns how to disconnect. Without it, both stay in the process.
 */
export function shareInterceptorState(env: NodeJS.ProcessEnv): (() => Promise<void>) | undefined {
  const url = env['REDIS_URL'];
  if (!url) return undefined;
  const limits = RedisRateLimits.connect(url);
  const cache = RedisCache.connect(url);
  useSharedRateLimits(limits);
  useSharedCache(cache);
  return async () => {
    useSharedRateLimits(undefined);
    useSharedCache(undefined);
    await Promise.all([limits.close(), cache.close()]);
  };
}
