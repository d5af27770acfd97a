import { LRUCache } from 'lru-cache';
import { InterceptorOptionError } from '../errors/interceptor-option.error';
import type { CallNext, InterceptedTool, InterceptorClass, ToolCall, ToolInterceptor } from '../metadata/tool-interceptor';
import { isToolError } from '../results/is-tool-error';
import { ResultWithContent } from '../wire/tool-content';
import { callerKeyOf, canonicalJson, isCallerKey, type CallerKey } from './call-key';
import { sharedCache, type SharedCache } from './shared-cache';

export interface CacheOptions {
  /** How long an answer is reused, in milliseconds: up to that age, not past it. */
  ttlMs: number;
  /** The most answers kept; the least recently used go first (default 1,000). */
  maxEntries?: number;
  /** Whose answers are shared (default `caller`): never across callers unless a function says so. */
  key?: CallerKey;
  /** The clock, in milliseconds (default `Date.now`): a test advances its own instead of sleeping. */
  now?: () => number;
  /**
   * The answers' name in a shared store (`REDIS_URL`): replicas share the answers of the `Cache`
   * of the same name. Default: its place among the app's `Cache`s and its TTL.
   */
  name?: string;
}

interface Entry {
  value: Promise<unknown>;
}

/**
 * Reuses a read-only tool's answer for the same arguments and caller for `ttlMs`. Calls that come
 * while the first is running wait for it instead of running the tool again. Only results are
 * kept: a `ToolError` or a throw is not. The startup gate refuses it on a tool without `readOnlyHint`.
 */
let made = 0;

export function Cache(options: CacheOptions): InterceptorClass {
  const { ttlMs, maxEntries } = checked(options);
  const name = options.name ?? `${++made}:${ttlMs}`;
  const key = options.key ?? 'caller';
  const now = options.now ?? Date.now;
  // Least recently used first out; an answer older than ttlMs is never returned. ttlResolution 0:
  // the clock is read on every lookup (a test's clock jumps).
  const entries = new LRUCache<string, Entry>({ max: maxEntries, ttl: ttlMs, ttlResolution: 0, perf: { now } });

  const remember = (id: string, value: Promise<unknown>, ttl = ttlMs): void => {
    entries.set(id, { value }, { ttl });
    // Failures are not answers: the next call runs the tool again.
    value.then(
      (result) => (isToolError(result) || (result instanceof ResultWithContent && isToolError(result.result))) && forget(id, value),
      () => forget(id, value),
    );
  };
  const forget = (id: string, value: Promise<unknown>) => {
    if (entries.peek(id)?.value === value) entries.delete(id);
  };

  class CacheInterceptor implements ToolInterceptor {
    static refuse(tool: InterceptedTool) {
      if (tool.annotations.readOnlyHint === true) return undefined;
      return {
        problem: `Cache reuses answers, and '${tool.name}' is not marked readOnlyHint, so a cached answer could hide what a call changes.`,
        fix: `if '${tool.name}' changes nothing, declare it @Tool({ annotations: { readOnlyHint: true } }); otherwise remove Cache from it.`,
      };
    }

    intercept(call: ToolCall, next: CallNext): Promise<unknown> {
      const id = `${call.toolset}\u0000${call.name}\u0000${canonicalJson(call.args)}\u0000${callerKeyOf(call, key)}`;
      const hit = entries.get(id);
      if (hit) return hit.value;
      const shared = sharedCache();
      if (!shared) {
        const value = next();
        remember(id, value);
        return value;
      }
      // Another replica's answer is kept here only as long as it has left there.
      const value: Promise<unknown> = fromShared(shared, `${name}\u0000${id}`, next, (left) => entries.peek(id)?.value === value && entries.set(id, { value }, { ttl: left }));
      remember(id, value);
      return value;
    }
  }
  /**
   * With a shared store: another replica's answer while it lasts, else the tool's, which is then
   * shared as JSON (a plain result only: not a ToolError, nor one with content beside it). The
   * store being down costs the sharing, never the call.
   */
  const fromShared = async (store: SharedCache, key: string, next: () => Promise<unknown>, found: (ttlLeft: number) => void): Promise<unknown> => {
    const shared = await store.get(key).catch(() => undefined);
    if (shared) {
      found(shared.ttlMs);
      return JSON.parse(shared.text) as unknown;
    }
    const result = await next();
    if (result !== null && typeof result === 'object' && !isToolError(result) && !(result instanceof ResultWithContent)) void store.set(key, JSON.stringify(result), ttlMs).catch(() => undefined);
    return result;
  };

  Object.defineProperty(CacheInterceptor, 'name', { value: 'Cache' });
  return CacheInterceptor;
}

function checked(options: CacheOptions): { ttlMs: number; maxEntries: number } {
  const { ttlMs, maxEntries = 1000 } = options ?? ({} as CacheOptions);
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new InterceptorOptionError('Cache', 'ttlMs', ttlMs, 'give how long an answer is reused, in whole milliseconds (60000 is a minute).');
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new InterceptorOptionError('Cache', 'maxEntries', maxEntries, 'give the most answers to keep, a whole number of at least 1.');
  if (options.key !== undefined && !isCallerKey(options.key)) throw new InterceptorOptionError('Cache', 'key', options.key, "use 'caller', 'subject', 'credential', 'address' or a function of the call.");
  if (options.now !== undefined && typeof options.now !== 'function') throw new InterceptorOptionError('Cache', 'now', options.now, 'give a function that returns the time in milliseconds, or leave it out for Date.now.');
  if (options.name !== undefined && (typeof options.name !== 'string' || !/^[\w.:-]{1,100}$/.test(options.name))) throw new InterceptorOptionError('Cache', 'name', options.name, 'give a name of 1–100 letters, digits and _ . : -, the same on every replica.');
  return { ttlMs, maxEntries };
}
