import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * What the fast path writes as the SDK's transports write it, in one place, each with the SDK
 * source it mirrors (`@modelcontextprotocol/server` 2.x, `dist/mcp-*.mjs`). The SDK exports none
 * of these; when it does, the export replaces the copy. The differential test
 * (`test/transport/fast-path.spec.ts`) compares the bytes both paths write.
 */

/** `DEFAULT_SSE_KEEP_ALIVE_MS`: how often an open event stream gets a `: keepalive` comment, unless `keepAliveMs` says otherwise. */
export const SDK_STREAM_KEEP_ALIVE_MS = 15_000;

/** `writeCommentFrame('keepalive')` of `PerRequestHTTPServerTransport` (and `startKeepAlive` of the session transport). */
export const KEEP_ALIVE_FRAME = ': keepalive\n\n';

/**
 * `upgradeToSse()` of `PerRequestHTTPServerTransport`: the headers of an answer stream, sent as
 * soon as the stream opens (before the first message), in the order a fetch `Headers` lists them.
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
});

/** `writeMessageFrame(message)`: one message on an answer stream. */
export function messageFrame(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

/**
 * `LADDER_ERROR_HTTP_STATUS` as `send()` applies it to an error a handler throws: the SDK answers
 * such an error with HTTP 200, but this one with the ladder's 400.
 */
export const HANDLER_ERROR_STATUS: Readonly<Record<number, number>> = Object.freeze({ [ProtocolErrorCode.MissingRequiredClientCapability]: 400 });

/** `armSseKeepAlive(intervalMs, onTick)`: an unref'd interval, none for a delay that is not a positive finite number. */
export function armKeepAlive(intervalMs: number, onTick: () => void): NodeJS.Timeout | undefined {
  if (!Number.isFinite(intervalMs) || intervalMs < 1) return undefined;
  return setInterval(onTick, Math.min(intervalMs, 2 ** 31 - 1)).unref();
}
