import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, JSONRPCRequest, RequestMetaEnvelope } from '@modelcontextprotocol/server';
import { isJsonContentType, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { DirectCalls, DirectEra } from '../../server/tools/direct-calls';
import { LEGACY_VERSIONS, MODERN_REVISIONS } from '../../wire/protocol-revisions';
import { armKeepAlive, encodeModernResult, EVENT_STREAM_HEADERS, HANDLER_ERROR_STATUS, KEEP_ALIVE_FRAME, messageFrame, thrownErrorAnswer } from '../../wire/sdk-mirror';
import { CALL_PARAMS, isRequest, modernClassification, plainParams, splitCallMeta } from '../fast-call-shape';
import { headerValue } from '../guards/request-target';
import { nodeRequestAsFetch } from './node-request-as-fetch';

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
 * stream as the SDK's stateless transport requires, a version it serves, nothing in `_meta` but a
 * progress token (its progress goes out on that stream). Anything else (a 2026-07-28 progress
 * token, a log level, a trace context, a task, a retry, a batch, a header to decode, a refusal to
 * answer) is left to the SDK: undefined.
 */
export function fastCallOf(req: IncomingMessage, parsed: object, sessions: boolean): FastCall | undefined {
  const message = parsed as Record<string, unknown>;
  if (message['method'] !== 'tools/call' || !isJsonContentType(req.headers['content-type'] ?? '') || !isRequest(message)) return undefined;
  const version = headerValue(req, 'mcp-protocol-version');
  if (version !== undefined && MODERN_REVISIONS.has(version)) return modernCallOf(req, message, version);
  return sessions ? undefined : legacyCallOf(req, message, version);
}

function modernCallOf(req: IncomingMessage, message: Record<string, unknown>, version: string): FastCall | undefined {
  const params = plainParams(message['params'], CALL_PARAMS);
  const split = params && splitCallMeta(params['_meta'], true);
  // The envelope and nothing else in `_meta`: a progress token may need the answer as an event stream, which this path does not write.
  if (!params || !split || split.kept !== undefined || split.envelope[PROTOCOL_VERSION_META_KEY] !== version) return undefined;
  const envelope = split.envelope;
  if (headerValue(req, 'mcp-method') !== 'tools/call' || headerValue(req, 'mcp-name') !== params['name']) return undefined;
  const classification = modernClassification(message, version, params['name'] as string, envelope);
  if (!classification) return undefined;
  // As the SDK lifts it: the envelope out of `_meta`, and `_meta` gone with it.
  const { _meta: _envelope, ...lifted } = params;
  return { era: { era: 'modern', classification }, request: { ...(message as unknown as JSONRPCRequest), params: lifted }, envelope: envelope as RequestMetaEnvelope };
}

function legacyCallOf(req: IncomingMessage, message: Record<string, unknown>, version: string | undefined): FastCall | undefined {
  if (req.headers['mcp-session-id'] !== undefined || (version !== undefined && !LEGACY_VERSIONS.has(version))) return undefined;
  const accept = headerValue(req, 'accept') ?? '';
  const params = plainParams(message['params'], CALL_PARAMS);
  if (!accept.includes('application/json') || !accept.includes('text/event-stream') || !params || !splitCallMeta(params['_meta'], false)) return undefined;
  // The SDK's classifier routes such a request to its 2025-era serving without asking more: a
  // JSON-RPC request, no initialize, no envelope claim (nothing in `_meta` but a progress token,
  // whose progress goes out on the answer's event stream), no modern version header.
  // (Asking it costs a failed Zod parse per call: it first tries the body as a response.)
  return { era: { era: 'legacy' }, request: message as unknown as JSONRPCRequest };
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
  // Ended under it: the client left, or the drain answered the call it cut (drain/cut-answers.ts).
  const gone = () => abort.signal.aborted || res.destroyed || res.writableEnded;
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
    answer = { result: modern ? encodeModernResult(result, calls.serverInfo) : result, jsonrpc: '2.0', id };
  } catch (error) {
    const errorAnswer = thrownErrorAnswer(id, error);
    if (modern) status = HANDLER_ERROR_STATUS[errorAnswer.error.code] ?? 200;
    answer = errorAnswer;
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
