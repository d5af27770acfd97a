import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisConnection } from '../server/tasks/redis-packages';

/** Answers every replica shares: JSON text by key, each with the time it has left. */
export interface SharedCache {
  get(key: string): Promise<{ text: string; ttlMs: number } | undefined>;
  set(key: string, text: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

/** `Cache`'s answers in Redis (`REDIS_URL`), so one computed on a replica is served by the others. */
export class RedisCache implements SharedCache {
  // Private: its connection's type is ioredis', which core's public declarations do not name (an optional peer).
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  static connect(url: string, prefix = 'toolsets:cache'): RedisCache {
    return new RedisCache(redisConnection(url), prefix);
  }

  async get(key: string): Promise<{ text: string; ttlMs: number } | undefined> {
    const [[, text], [, ttlMs]] = (await this.redis.multi().get(this.key(key)).pttl(this.key(key)).exec()) as [[unknown, string | null], [unknown, number]];
    return text === null || ttlMs <= 0 ? undefined : { text, ttlMs };
  }

  async set(key: string, text: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(key), text, 'PX', ttlMs);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }

  /** The key is a hash: the arguments and the caller's key stay out of Redis' key space. */
  private key(key: string): string {
    return `${this.prefix}:${createHash('sha256').update(key).digest('base64url')}`;
  }
}

let shared: SharedCache | undefined;

/** Makes every `Cache` in this process share answers through `cache` (an app with `REDIS_URL`); `undefined` goes back to each process's own. */
export function useSharedCache(cache: SharedCache | undefined): void {
  shared = cache;
}

/** The shared answers, when the app set them up. */
export function sharedCache(): SharedCache | undefined {
  return shared;
}
