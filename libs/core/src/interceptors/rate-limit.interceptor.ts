import { InterceptorOptionError } from '../errors/interceptor-option.error';
import type { CallNext, InterceptorClass, ToolCall, ToolInterceptor } from '../metadata/tool-interceptor';
import { ToolError } from '../results/tool-error';
import { chargedKeysOf, isCallerKey, type CallerKey } from './call-key';
import { sharedRateLimits } from './shared-rate-limits';

export interface RateLimitOptions {
  /** Calls a caller may make at once before waiting (the bucket's size). */
  capacity: number;
  /** Calls a caller earns back per second. */
  refillPerSecond: number;
  /** Who shares a bucket (default `caller`: subject, else credentials, else address). */
  key?: CallerKey;
  /** The most callers tracked; past it, full buckets are forgotten first (default 10,000). */
  maxKeys?: number;
  /** The clock, in milliseconds (default `Date.now`): a test advances its own instead of sleeping. */
  now?: () => number;
  /**
   * The buckets' name in a shared store (`REDIS_URL`): replicas share the buckets of the
   * `RateLimit` of the same name. Default: its place among the app's `RateLimit`s (the same on
   * every replica of one build) and its options.
   */
  name?: string;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * A token bucket per caller around the tools it is put on (one set of buckets per `RateLimit(...)`
 * written: on a toolset, its tools share it). Over the limit the call is not run: it answers the
 * `ToolError` `rate_limited`, whose detail says in how many seconds to retry.
 */
let made = 0;

export function RateLimit(options: RateLimitOptions): InterceptorClass {
  const { capacity, refillPerSecond } = checked(options);
  const name = options.name ?? `${++made}:${capacity}:${refillPerSecond}`;
  const key = options.key ?? 'caller';
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  const refilled = (id: string, now: number): Bucket => {
    const bucket = buckets.get(id) ?? { tokens: capacity, updated: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updated) / 1000) * refillPerSecond);
    bucket.updated = now;
    if (!buckets.has(id)) {
      if (buckets.size >= maxKeys) forget(buckets, maxKeys, capacity, refillPerSecond, now);
      buckets.set(id, bucket);
    }
    return bucket;
  };
  // A call runs only if every bucket it is charged to has a token; then each gives one.
  const take = (ids: readonly string[], now: number): number => {
    const charged = ids.map((id) => refilled(id, now));
    const short = Math.min(...charged.map((bucket) => bucket.tokens));
    if (short >= 1) {
      for (const bucket of charged) bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - short) / refillPerSecond));
  };

  const refuse = (call: ToolCall, retryAfter: number) =>
    new ToolError('rate_limited', `Too many calls to '${call.name}': at most ${capacity} at once and ${refillPerSecond} per second. Retry after ${retryAfter} s.`);

  class RateLimitInterceptor implements ToolInterceptor {
    intercept(call: ToolCall, next: CallNext): unknown {
      const shared = sharedRateLimits();
      // Shared by the replicas (REDIS_URL): Redis charges the buckets, by its own clock.
      if (shared) return shared.take(name, chargedKeysOf(call, key), capacity, refillPerSecond).then((retryAfter) => (retryAfter === 0 ? next() : refuse(call, retryAfter)));
      const retryAfter = take(chargedKeysOf(call, key), now());
      return retryAfter === 0 ? next() : refuse(call, retryAfter);
    }
  }
  Object.defineProperty(RateLimitInterceptor, 'name', { value: 'RateLimit' });
  return RateLimitInterceptor;
}

/**
 * Makes room: drops the buckets that are full by now (callers who went quiet lose nothing), and if
 * that is not enough, the least recently created half.
 */
function forget(buckets: Map<string, Bucket>, maxKeys: number, capacity: number, refillPerSecond: number, now: number): void {
  for (const [id, bucket] of buckets) {
    if (bucket.tokens + ((now - bucket.updated) / 1000) * refillPerSecond >= capacity) buckets.delete(id);
  }
  let drop = buckets.size - Math.floor(maxKeys / 2);
  for (const id of buckets.keys()) {
    if (drop-- <= 0) break;
    buckets.delete(id);
  }
}

function checked(options: RateLimitOptions): { capacity: number; refillPerSecond: number } {
  const { capacity, refillPerSecond } = options ?? ({} as RateLimitOptions);
  if (!Number.isSafeInteger(capacity) || capacity < 1) throw new InterceptorOptionError('RateLimit', 'capacity', capacity, 'give the number of calls a caller may make at once, a whole number of at least 1.');
  if (typeof refillPerSecond !== 'number' || !Number.isFinite(refillPerSecond) || refillPerSecond <= 0) {
    throw new InterceptorOptionError('RateLimit', 'refillPerSecond', refillPerSecond, 'give the calls per second a caller earns back, a number above 0 (1/60 is one a minute).');
  }
  if (options.key !== undefined && !isCallerKey(options.key)) throw new InterceptorOptionError('RateLimit', 'key', options.key, "use 'caller', 'subject', 'credential', 'address' or a function of the call.");
  if (options.now !== undefined && typeof options.now !== 'function') throw new InterceptorOptionError('RateLimit', 'now', options.now, 'give a function that returns the time in milliseconds, or leave it out for Date.now.');
  if (options.maxKeys !== undefined && (!Number.isSafeInteger(options.maxKeys) || options.maxKeys < 1)) throw new InterceptorOptionError('RateLimit', 'maxKeys', options.maxKeys, 'give a whole number of at least 1.');
  checkName(options.name);
  return { capacity, refillPerSecond };
}

/** A shared store's name for the buckets: a word every replica spells the same. */
function checkName(name: unknown): void {
  if (name !== undefined && (typeof name !== 'string' || !/^[\w.:-]{1,100}$/.test(name))) {
    throw new InterceptorOptionError('RateLimit', 'name', name, 'give a name of 1–100 letters, digits and _ . : -, the same on every replica.');
  }
}
