import type { IncomingMessage, ServerResponse } from 'node:http';
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
import type { CatalogView } from '../../selection/catalog-view';
import type { DirectCalls } from '../../server/tools/direct-calls';
import { MODERN_REVISIONS } from '../../wire/protocol-revisions';
import { headerValue } from '../guards/request-target';
import { requestView } from './request-view';

/** The only `_meta` keys a call on the fast path may carry: the envelope without a log level. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
/** The only params a call on the fast path may carry: no task, no retry material (`requestState`, `inputResponses`). */
const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
/** A tool name its `Mcp-Name` header carries as it is (no Base64 sentinel, nothing to decode). */
const PLAIN_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;
/** The SDK answers an error a handler throws with HTTP 200, but this one with the ladder's 400 (its PerRequestHTTPServerTransport). */
const LADDER_STATUS: Readonly<Record<number, number>> = { [ProtocolErrorCode.MissingRequiredClientCapability]: 400 };

/** A 2026-07-28 `tools/call` the fast path takes: its classification, the request as handlers see it, and its envelope. */
export interface FastCall {
  classification: MessageClassification;
  request: JSONRPCRequest;
  envelope: RequestMetaEnvelope;
}

/**
 * The fast path's share of requests: a 2026-07-28 `tools/call` that the SDK would let through to
 * its handler (classified modern for a revision served, its standard headers present and agreeing
 * with its body, JSON), carrying nothing in `_meta` but the envelope and nothing in its params but
 * the name and arguments. Anything else (a progress token, a log level, a trace context, a task,
 * a retry, a batch, a header to decode, a refusal to answer) is left to the SDK: undefined.
 */
export function fastCallOf(req: IncomingMessage, parsed: object): FastCall | undefined {
  const message = parsed as { method?: unknown; params?: unknown };
  if (message.method !== 'tools/call' || !isJsonContentType(req.headers['content-type'] ?? '')) return undefined;
  const params = plainCallParams(message.params);
  const version = headerValue(req, 'mcp-protocol-version');
  if (!params || version === undefined || !MODERN_REVISIONS.has(version)) return undefined;
  if (headerValue(req, 'mcp-method') !== 'tools/call' || headerValue(req, 'mcp-name') !== params.name) return undefined;
  const classification = classified(parsed, version, params);
  if (!classification) return undefined;
  // As the SDK lifts it: the envelope out of `_meta`, and `_meta` gone with it.
  const { _meta: envelope, ...lifted } = params;
  return { classification, request: { ...(parsed as JSONRPCRequest), params: lifted } as JSONRPCRequest, envelope };
}

/** Envelopes the SDK's classifier found valid, by their JSON and the version header: a client sends the same one on every call. */
const validEnvelopes = new Map<string, MessageClassification>();
/** Enough for every client release calling one replica; past it the cache starts again. */
const MAX_ENVELOPES = 512;
/** The members of a JSON-RPC request: a body with any other is the SDK classifier's to judge. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * The SDK's classification of a `tools/call` whose headers already agree with its body, when it is
 * served modern at `version`. Its envelope's validation (a Zod parse) is what costs: an envelope
 * already found valid with this version is not parsed again, where the rest of what the
 * classifier checks of such a request (a JSON-RPC request: its members, `jsonrpc`, an id that is a
 * string or a safe integer) is checked here as it checks it.
 */
function classified(parsed: object, version: string, params: { name: string; _meta: RequestMetaEnvelope }): MessageClassification | undefined {
  const message = parsed as Record<string, unknown>;
  const key = `${version} ${JSON.stringify(params._meta)}`;
  const known = validEnvelopes.get(key);
  if (known && hasOnly(message, REQUEST_MEMBERS) && message['jsonrpc'] === '2.0' && (typeof message['id'] === 'string' || Number.isSafeInteger(message['id']))) return known;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, mcpMethodHeader: 'tools/call', mcpNameHeader: params.name, body: parsed });
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.classification.revision !== version) return undefined;
  if (validEnvelopes.size >= MAX_ENVELOPES) validEnvelopes.clear();
  validEnvelopes.set(key, outcome.classification);
  return outcome.classification;
}

/** A call's params when they hold a plain name, arguments that are an object (or none), and a `_meta` that is the envelope alone. */
function plainCallParams(params: unknown): { name: string; arguments?: unknown; _meta: RequestMetaEnvelope } | undefined {
  if (!isPlainObject(params) || typeof params['name'] !== 'string' || !PLAIN_NAME.test(params['name'])) return undefined;
  if (!hasOnly(params, CALL_PARAMS) || (params['arguments'] !== undefined && !isPlainObject(params['arguments']))) return undefined;
  const meta = params['_meta'];
  return isPlainObject(meta) && hasOnly(meta, ENVELOPE_KEYS) ? (params as { name: string; _meta: RequestMetaEnvelope }) : undefined;
}

/**
 * Answers `call` on `calls` and writes what the SDK's handler would have written, byte for byte:
 * the result encoded as its 2026-07-28 codec encodes it, or the error the handler threw, as JSON.
 * A client that goes away aborts the call's signal and gets nothing, as there.
 */
export async function answerFastCall(
  calls: DirectCalls,
  call: FastCall,
  req: IncomingMessage,
  res: ServerResponse,
  selected: CatalogView,
  authInfo: AuthInfo | undefined,
): Promise<void> {
  const abort = new AbortController();
  let finished = false;
  res.once('close', () => {
    if (!finished) abort.abort();
  });
  const id = call.request.id;
  let status = 200;
  let body: string;
  try {
    const result = await calls.call(call.classification, { request: call.request, envelope: call.envelope, signal: abort.signal, httpRequest: requestView(req, abort.signal), selected, ...(authInfo && { authInfo }) });
    body = JSON.stringify({ result: encoded(result, calls.serverInfo), jsonrpc: '2.0', id });
  } catch (error) {
    const thrown = error as { code?: unknown; message?: string; data?: unknown };
    const code = Number.isSafeInteger(thrown['code']) ? (thrown['code'] as number) : ProtocolErrorCode.InternalError;
    status = LADDER_STATUS[code] ?? 200;
    // The 2026-07-28 codec's error codes: -32002 (resource not found) is -32602 there.
    body = JSON.stringify({ jsonrpc: '2.0', id, error: { code: code === -32002 ? ProtocolErrorCode.InvalidParams : code, message: thrown.message ?? 'Internal error', ...(thrown.data !== undefined && { data: thrown.data }) } });
  }
  finished = true;
  if (abort.signal.aborted || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
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
