import type { Redis, RedisOptions } from 'ioredis';
import { RedisPackagesMissingError } from '../../errors/redis-packages-missing.error';
import { loadOptionalPackages } from '../../helpers/optional-packages';

/**
 * What `REDIS_URL` needs beyond core: optional peer dependencies (a single replica needs no Redis),
 * loaded only when it is set. The ranges are core's peer ranges.
 */
export const REDIS_PACKAGES: Readonly<Record<string, string>> = { ioredis: '^6.0.0', bullmq: '^6.7.0' };

type IoRedis = typeof import('ioredis');
export type BullMq = typeof import('bullmq');

/** ioredis and BullMQ, or an error naming the missing ones and the install command. */
export function loadRedisPackages(load: (name: string) => unknown = require): { ioredis: IoRedis; bullmq: BullMq } {
  const { loaded, missing } = loadOptionalPackages(Object.keys(REDIS_PACKAGES), load);
  if (missing.length > 0) throw new RedisPackagesMissingError(missing, REDIS_PACKAGES);
  return { ioredis: loaded.get('ioredis') as IoRedis, bullmq: loaded.get('bullmq') as BullMq };
}

/**
 * A connection to `url` (`redis://` or `rediss://`). `maxRetriesPerRequest: null`, as BullMQ
 * needs for its blocking reads; commands wait for a reconnect instead of failing at once.
 */
export function redisConnection(url: string, options: RedisOptions = {}): Redis {
  const { ioredis } = loadRedisPackages();
  return new ioredis.Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}
