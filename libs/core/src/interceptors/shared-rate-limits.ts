import type { Redis } from 'ioredis';
import { redisConnection } from '../server/tasks/redis-packages';

/**
 * Token buckets every replica shares: `take` charges one call to each named bucket and says how
 * many seconds to wait when one of them is empty (0: admitted, every bucket charged).
 */
export interface SharedRateLimits {
  take(limit: string, ids: readonly string[], capacity: number, refillPerSecond: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * One call against several buckets, at once on the Redis server: refilled by Redis' own clock (the
 * replicas' clocks never disagree), charged only if every one has a token. KEYS the buckets;
 * ARGV capacity, refill per second, expiry in ms (an idle bucket is full again by then).
 */
const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tokens = {}
local short = capacity
for i, key in ipairs(KEYS) do
  local state = redis.call('HMGET', key, 't', 'u')
  local t = tonumber(state[1]) or capacity
  local u = tonumber(state[2]) or now
  t = math.min(capacity, t + ((now - u) / 1000) * rate)
  tokens[i] = t
  if t < short then short = t end
end
if short < 1 then return tostring(short) end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 't', tostring(tokens[i] - 1), 'u', tostring(now))
  redis.call('PEXPIRE', key, ARGV[3])
end
return 'ok'
`;

/** The buckets of every `RateLimit` in Redis (`REDIS_URL`), so a limit of N holds across all replicas. */
export class RedisRateLimits implements SharedRateLimits {
  // Private: its connection's type is ioredis', which core's public declarations do not name (an optional peer).
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  static connect(url: string, prefix = 'toolsets:rate-limit'): RedisRateLimits {
    return new RedisRateLimits(redisConnection(url), prefix);
  }

  async take(limit: string, ids: readonly string[], capacity: number, refillPerSecond: number): Promise<number> {
    const keys = ids.map((id) => `${this.prefix}:${limit}:${id}`);
    const fullAgainMs = Math.ceil((capacity / refillPerSecond) * 1000) + 1000;
    const answer = (await this.redis.eval(TAKE, keys.length, ...keys, String(capacity), String(refillPerSecond), String(fullAgainMs))) as string;
    if (answer === 'ok') return 0;
    return Math.max(1, Math.ceil((1 - Number(answer)) / refillPerSecond));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

let shared: SharedRateLimits | undefined;

/**
 * Makes every `RateLimit` in this process keep its buckets in `limits` (an app with `REDIS_URL`
 * calls it before serving); `undefined` goes back to buckets in the process.
 */
export function useSharedRateLimits(limits: SharedRateLimits | undefined): void {
  shared = limits;
}

/** The shared buckets, when the app set them up. */
export function sharedRateLimits(): SharedRateLimits | undefined {
  return shared;
}
