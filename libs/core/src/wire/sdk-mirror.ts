import { ProtocolErrorCode, SERVER_INFO_META_KEY, type Result } from '@modelcontextprotocol/server';

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

/** `BASE64_SENTINEL_PREFIX` … `BASE64_SENTINEL_SUFFIX`: an `Mcp-Param-*` value that carries Base64. */
const PARAM_SENTINEL_PREFIX = '=?base64?';
const PARAM_SENTINEL_SUFFIX = '?=';
/** `BASE64_CANONICAL`: Base64 as RFC 4648 writes it, padded. */
const BASE64_CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** `CANONICAL_DECIMAL`: a header an integer argument is compared with as a number (`42.0` is 42). */
const CANONICAL_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * `decodeMcpParamValue(value)`: a value without the sentinel as it is; with it, its payload
 * decoded as UTF-8 by a fatal decoder (U+FFFD encoded as such is a character like any other), or
 * undefined when the payload is not canonical Base64 or not UTF-8.
 */
export function decodeParamValue(value: string): string | undefined {
  if (!(value.startsWith(PARAM_SENTINEL_PREFIX) && value.endsWith(PARAM_SENTINEL_SUFFIX))) return value;
  const payload = value.slice(PARAM_SENTINEL_PREFIX.length, value.length - PARAM_SENTINEL_SUFFIX.length);
  if (!BASE64_CANONICAL.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

/** `mcpParamPrimitiveToString(value)`: an argument's header text, or undefined for one no header carries (not finite, an unsafe integer, not a primitive). */
export function paramValueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value !== 'number' || !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) return undefined;
  return String(value);
}

/** The comparison in `validateMcpParamHeaders`: an integer argument numerically against a decimal header, anything else as text. */
export function sameParamValue(type: string, decoded: string, value: unknown, text: string): boolean {
  return (type === 'integer' || type === 'number') && CANONICAL_DECIMAL.test(decoded) && typeof value === 'number' ? Number(decoded) === value : decoded === text;
}

/**
 * `encodeResult('tools/call', result, serverInfo)` of the 2026-07-28 codec: `resultType` stamped
 * `complete` unless the handler gave one (a task handle, `input_required`), and the server's
 * identity added to `_meta` unless the handler put one there. (The 2025-era codec sends a result as it is.)
 */
export function encodeModernResult(result: Result, serverInfo: { name: string; version: string }): Result {
  const typed = (result as { resultType?: unknown }).resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const meta: unknown = typed._meta;
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || (meta as Record<string, unknown>)[SERVER_INFO_META_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

/**
 * The answer `_onrequest` of the SDK's `Protocol` sends for an error its handler throws: the
 * thrown code (a safe integer, else -32603) through the codec's `encodeErrorCode` (both eras'
 * codecs send -32002, resource not found, as -32602), its message (else "Internal error") and data.
 */
export function thrownErrorAnswer(id: string | number, error: unknown): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data?: unknown } } {
  const thrown = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  const code = Number.isSafeInteger(thrown['code']) ? (thrown['code'] as number) : ProtocolErrorCode.InternalError;
  return { jsonrpc: '2.0', id, error: { code: code === -32002 ? ProtocolErrorCode.InvalidParams : code, message: thrown.message ?? 'Internal error', ...(thrown.data !== undefined && { data: thrown.data }) } };
}

/** `isStandardSchema(value)`: whether `ctx.mcpReq.send` was given a result schema (a Standard Schema) or options. */
export function isStandardSchema(value: unknown): boolean {
  if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'function')) return false;
  return '~standard' in value && typeof (value as { '~standard'?: { validate?: unknown } })['~standard']?.validate === 'function';
}
