import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  ProtocolErrorCode,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type AuthInfo,
  type JSONRPCRequest,
  type MessageClassification,
  type RequestMetaEnvelope,
  type Result,
} from '@modelcontextprotocol/server';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { DirectCalls, DirectEra } from '../../server/tools/direct-calls';
import { LEGACY_VERSIONS, MODERN_REVISIONS } from '../../wire/protocol-revisions';
import { armKeepAlive, EVENT_STREAM_HEADERS, HANDLER_ERROR_STATUS, KEEP_ALIVE_FRAME, messageFrame } from '../../wire/sdk-mirror';
import { headerValue } from '../guards/request-target';
import { nodeRequestAsFetch } from './node-request-as-fetch';

/** The only `_meta` keys a 2026-07-28 call on the fast path may carry: the envelope without a log level. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
/** The only params a 2026-07-28 call on the fast path may carry: no task, no retry material (`requestState`, `inputResponses`). */
const MODERN_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
/** The only params a 2025-era call on the fast path may carry: no `_meta` (no progress token), no task. */
const LEGACY_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments']);
/** The members of a JSON-RPC request: a body with any other is the SDK's to judge. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/** A tool name its `Mcp-Name` header carries as it is (no Base64 sentinel, nothing to decode). */
const PLAIN_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;

/** A `tools/call` the fast path takes: its era, the request as handlers see it, and a 2026-07-28 request's envelope. */
export interface FastCall {
  era: DirectEra;
  request: JSONRPCRequest;
  envelope?: RequestMetaEnvelope;
}

/**
 * The fast path's share of requests: a `tools/call` that the SDK would let through to its handler,
 * with nothing to carry but the tool's name and arguments. In 2026-07-28: classified modern for a
 * revision served, its standard headers present and agreeing with its body, nothing in `_meta` but
 * the envelope. In the 2025 era: without a session (none kept, none named), accepting an event
 * stream as the SDK's stateless transport requires, a version it serves, no `_meta`. Anything else
 * (a progress token, a log level, a trace context, a task, a retry, a batch, a header to decode,
 * a refusal to answer) is left to the SDK: undefined.
 */
export function fastCallOf(req: IncomingMessage, parsed: object, sessions: boolean): FastCall | undefined {
  const message = parsed as Record<string, unknown>;
  if (message['method'] !== 'tools/call' || !isJsonContentType(req.headers['content-type'] ?? '') || !isRequest(message)) return undefined;
  const version = headerValue(req, 'mcp-protocol-version');
  if (version !== undefined && MODERN_REVISIONS.has(version)) return modernCallOf(req, message, version);
  return sessions ? undefined : legacyCallOf(req, message, version);
}

function modernCallOf(req: IncomingMessage, message: Record<string, unknown>, version: string): FastCall | undefined {
  const params = plainParams(message['params'], MODERN_PARAMS);
  const meta = params?.['_meta'];
  if (!params || !isPlainObject(meta) || !hasOnly(meta, ENVELOPE_KEYS)) return undefined;
  if (headerValue(req, 'mcp-method') !== 'tools/call' || headerValue(req, 'mcp-name') !== params['name']) return undefined;
  const classification = classified(message, version, params['name'] as string, meta);
  if (!classification) return undefined;
  // As the SDK lifts it: the envelope out of `_meta`, and `_meta` gone with it.
  const { _meta: _envelope, ...lifted } = params;
  return { era: { era: 'modern', classification }, request: { ...(message as unknown as JSONRPCRequest), params: lifted }, envelope: meta as RequestMetaEnvelope };
}

function legacyCallOf(req: IncomingMessage, message: Record<string, unknown>, version: string | undefined): FastCall | undefined {
  if (req.headers['mcp-session-id'] !== undefined || (version !== undefined && !LEGACY_VERSIONS.has(version))) return undefined;
  const accept = headerValue(req, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream') || !plainParams(message['params'], LEGACY_PARAMS)) return undefined;
  // The SDK's classifier routes such a request to its 2025-era serving without asking more: a
  // JSON-RPC request, no initialize, no envelope claim (no `_meta`), no modern version header.
  // (Asking it costs a failed Zod parse per call: it first tries the body as a response.)
  return { era: { era: 'legacy' }, request: message as unknown as JSONRPCRequest };
}

/** Whether `message` is a JSON-RPC request as the SDK's schema has it: its members only, `jsonrpc` 2.0, an id that is a string or a safe integer. */
function isRequest(message: Record<string, unknown>): boolean {
  const id = message['id'];
  return hasOnly(message, REQUEST_MEMBERS) && message['jsonrpc'] === '2.0' && (typeof id === 'string' || Number.isSafeInteger(id));
}

/** A call's params when they hold a plain name, arguments that are an object (or none), and no member but `allowed`. */
function plainParams(params: unknown, allowed: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (!isPlainObject(params) || typeof params['name'] !== 'string' || !PLAIN_NAME.test(params['name'])) return undefined;
  return hasOnly(params, allowed) && (params['arguments'] === undefined || isPlainObject(params['arguments'])) ? params : undefined;
}

/** Envelopes the SDK's classifier found valid, by their JSON and the version header: a client sends the same one on every call. Enough for every client release calling one replica. */
const validEnvelopes = new LRUCache<string, MessageClassification>({ max: 512 });

/**
 * The SDK's classification of a 2026-07-28 `tools/call` whose headers already agree with its body
 * and which is a JSON-RPC request, when it is served modern at `version`. Its envelope's
 * validation (a Zod parse, 5 µs) is what costs: an envelope already found valid with this version
 * is not parsed again; the classifier decides nothing else about such a request.
 */
function classified(message: Record<string, unknown>, version: string, name: string, meta: Record<string, unknown>): MessageClassification | undefined {
  const key = `${version} ${JSON.stringify(meta)}`;
  const known = validEnvelopes.get(key);
  if (known) return known;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, mcpMethodHeader: 'tools/call', mcpNameHeader: name, body: message });
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.classification.revision !== version) return undefined;
  validEnvelopes.set(key, outcome.classification);
  return outcome.classification;
}

/**
 * Answers `call` on `calls` and writes what the SDK would have written, byte for byte and in
 * time: in 2026-07-28, the result encoded as its codec encodes it, or the error the handler
 * threw, as one JSON body; in the 2025 era, an event stream opened at once (its headers sent,
 * then a `: keepalive` comment every `keepAliveMs`, so a proxy's read timeout does not cut a long
 * call) carrying the call's log lines and then its answer. A client that goes away aborts the
 * call's signal and gets nothing more, as there.
 */
export async function answerFastCall(
  calls: DirectCalls,
  call: FastCall,
  req: IncomingMessage,
  res: ServerResponse,
  selected: CatalogSlice,
  authInfo: AuthInfo | undefined,
  keepAliveMs: number,
): Promise<void> {
  const abort = new AbortController();
  let finished = false;
  res.once('close', () => {
    if (!finished) abort.abort();
  });
  const modern = call.era.era === 'modern';
  const gone = () => abort.signal.aborted || res.destroyed;
  let keepAlive: NodeJS.Timeout | undefined;
  if (!modern) {
    res.writeHead(200, EVENT_STREAM_HEADERS);
    res.flushHeaders();
    keepAlive = armKeepAlive(keepAliveMs, () => {
      if (!gone()) res.write(KEEP_ALIVE_FRAME);
    });
  }
  const notify = (message: object) => {
    if (!modern && !gone()) writeEvent(res, message);
  };
  const id = call.request.id;
  let status = 200;
  let answer: object;
  try {
    const result = await calls.call(call.era, { request: call.request, ...(call.envelope && { envelope: call.envelope }), notify, signal: abort.signal, httpRequest: nodeRequestAsFetch(req, abort.signal), selected, ...(authInfo && { authInfo }) });
    answer = { result: modern ? encoded(result, calls.serverInfo) : result, jsonrpc: '2.0', id };
  } catch (error) {
    const thrown = error as { code?: unknown; message?: string; data?: unknown };
    const code = Number.isSafeInteger(thrown['code']) ? (thrown['code'] as number) : ProtocolErrorCode.InternalError;
    if (modern) status = HANDLER_ERROR_STATUS[code] ?? 200;
    // Both eras' codecs: -32002 (resource not found) is -32602 on the wire.
    answer = { jsonrpc: '2.0', id, error: { code: code === -32002 ? ProtocolErrorCode.InvalidParams : code, message: thrown.message ?? 'Internal error', ...(thrown.data !== undefined && { data: thrown.data }) } };
  }
  finished = true;
  clearInterval(keepAlive);
  if (gone()) return;
  if (!modern) {
    writeEvent(res, answer);
    res.end();
    return;
  }
  const body = JSON.stringify(answer);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** One message on a 2025-era answer stream, framed as the SDK's transport frames it; one that cannot be serialised is dropped, as there. */
function writeEvent(res: ServerResponse, message: object): void {
  let data: string;
  try {
    data = JSON.stringify(message);
  } catch {
    return;
  }
  res.write(messageFrame(data));
}

/**
 * A `tools/call` result as the SDK's 2026-07-28 codec encodes it: `resultType` stamped `complete`
 * unless the handler gave one (a task handle, `input_required`), and the server's identity added
 * to `_meta` unless the handler put one there.
 */
function encoded(result: Result, serverInfo: { name: string; version: string }): Result {
  const typed = (result as { resultType?: unknown }).resultType === undefined ? { ...result, resultType: 'complete' } : result;
  const meta = typed._meta;
  if (meta === undefined) return { ...typed, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return typed;
  return { ...typed, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOnly(record: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in record) if (!allowed.has(key)) return false;
  return true;
}
