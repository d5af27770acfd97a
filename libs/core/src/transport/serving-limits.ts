import { SDK_STREAM_KEEP_ALIVE_MS } from '../wire/sdk-mirror';
import { DEFAULT_ARGUMENT_LIMITS, type ArgumentLimits } from '../server/checks/argument-limits';

/** Every bound the HTTP serving path enforces; the Serving table of docs/serving-and-deploying.md lists them with their variables. */
export interface ServingLimits {
  /** Largest request body (and stdio message), in bytes; larger ones get 413. */
  maxBodyBytes: number;
  /** Body bytes buffered across all requests at once, beyond each body's first 16 KiB; past it, 503. */
  maxBufferedBodyBytes: number;
  /** Open connections; one more is answered 503 with `Retry-After` and closed. */
  maxConnections: number;
  /** Requests being served at once; one more gets 503 with `Retry-After`. */
  maxRequestsInFlight: number;
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included; a stalled body gets 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (announced to clients in `Keep-Alive`). */
  keepAliveTimeoutMs: number;
  /**
   * How often an open event stream (a 2025-era call's answer, a session's stream, a task listen)
   * gets a `: keepalive` comment, so a proxy's read timeout does not cut a long call: the SDK's
   * `keepAliveMs`, which both the SDK path and the fast path are given.
   */
  streamKeepAliveMs: number;
  /** After SIGTERM, how long readiness reports 503 while still serving, before draining starts. */
  drainDelayMs: number;
  /** How long the drain waits for in-flight calls and open connections before cutting them. */
  drainTimeoutMs: number;
  /**
   * The drain closes the listener only once no connection has arrived for this long (at most
   * DRAIN_TIMEOUT_MS). 0: nothing in front of the server holds its connections (the dev loop, a
   * test), so the listener and idle connections close at once and only calls in flight are waited for.
   */
  drainQuietMs: number;
  /** Array items in one call's arguments, all arrays together; and keys in any one object of them. */
  maxArgumentItems: number;
  /** Characters in any one string of a call's arguments. */
  maxArgumentStringLength: number;
  /** Nesting of objects and arrays in a call's arguments. */
  maxArgumentDepth: number;
  /** With 2025-era sessions on (`MCP_SESSIONS=on`): open sessions; one more `initialize` gets 503. */
  maxSessions: number;
  /** With sessions on: a session unused this long is closed. */
  sessionIdleTimeoutMs: number;
  /** With sessions on: a session that made no request after `initialize` is closed after this long. */
  sessionIdleUnusedMs: number;
  /** With sessions on: open sessions per client address; one more `initialize` from it gets 429. */
  maxSessionsPerClient: number;
}

export const DEFAULT_SERVING_LIMITS: Readonly<ServingLimits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
  maxConnections: 1024,
  maxRequestsInFlight: 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  streamKeepAliveMs: SDK_STREAM_KEEP_ALIVE_MS,
  drainDelayMs: 0,
  drainTimeoutMs: 10_000,
  drainQuietMs: 250,
  maxArgumentItems: DEFAULT_ARGUMENT_LIMITS.maxItems,
  maxArgumentStringLength: DEFAULT_ARGUMENT_LIMITS.maxStringLength,
  maxArgumentDepth: DEFAULT_ARGUMENT_LIMITS.maxDepth,
  maxSessions: 10_000,
  sessionIdleTimeoutMs: 30 * 60_000,
  sessionIdleUnusedMs: 60_000,
  maxSessionsPerClient: 100,
});

/** Limits that may be 0: no delay, no quiet period, no keepalive comments. */
export const ZERO_ALLOWED: ReadonlySet<keyof ServingLimits> = new Set(['drainDelayMs', 'drainQuietMs', 'streamKeepAliveMs']);

/** The defaults with `overrides` on top; throws on a value that is not a usable number. */
export function resolveServingLimits(overrides: Partial<ServingLimits> = {}): ServingLimits {
  const limits = { ...DEFAULT_SERVING_LIMITS };
  for (const [key, value] of Object.entries(overrides) as [keyof ServingLimits, number | undefined][]) {
    if (value === undefined) continue;
    const zeroAllowed = ZERO_ALLOWED.has(key);
    if (!Number.isInteger(value) || value < 0 || (value === 0 && !zeroAllowed)) {
      throw new Error(`Serving limit '${key}' must be a ${zeroAllowed ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}.`);
    }
    limits[key] = value;
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(
      `The headers timeout (${limits.headersTimeoutMs} ms) must not exceed the request timeout (${limits.requestTimeoutMs} ms): a request's headers are part of it.`,
    );
  }
  return limits;
}

/** The argument bounds among the serving limits, as each call checks them. */
export function argumentLimitsOf(limits: Pick<ServingLimits, 'maxArgumentItems' | 'maxArgumentStringLength' | 'maxArgumentDepth'>): ArgumentLimits {
  return { maxItems: limits.maxArgumentItems, maxStringLength: limits.maxArgumentStringLength, maxDepth: limits.maxArgumentDepth };
}
