import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import { rememberRouting, routingOf } from '../../context/routed-request';

/** Request headers that describe a body the bridged request does not carry (the body goes parsed). */
export const BODY_FRAMING: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/**
 * Hands a request whose body this server has already read and parsed to the SDK's web-standard
 * handler, and writes its answer back. The SDK's `toNodeHandler` does the same for any request,
 * but with a parsed body it serialises it again into a `Request` body stream that nothing reads
 * (the handler takes `parsedBody`), and it copies even a one-line JSON answer out of the
 * `Response` through an async iterator. Here the `Request` carries headers only, a JSON answer
 * is read whole and written with one `end`, and an event stream is copied as it comes, with
 * backpressure, as the SDK does. A client that goes away aborts the request's signal, as there.
 */
export async function bridgeParsedRequest(
  handler: McpHttpHandler,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  onerror: (error: Error) => void,
  /** The verified caller, when the mount checks tokens (pass-through to handlers as `ctx.http.authInfo`). */
  authInfo?: AuthInfo,
): Promise<void> {
  let finished = false;
  const abort = new AbortController();
  res.once('close', () => {
    if (!finished) abort.abort();
  });
  let response: Response;
  try {
    response = await handler.fetch(webRequest(req, abort.signal), authInfo ? { parsedBody, authInfo } : { parsedBody });
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    response = Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }, { status: 500 });
  }
  // The drain answered this request while the handler ran (drain/cut-answers.ts): its answer is too late.
  if (res.writableEnded) {
    response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null || !isEventStream(response)) {
    // A JSON answer (or none) is complete when the handler resolves: write it in one go.
    const body = response.body === null ? undefined : Buffer.from(await response.arrayBuffer());
    finished = true;
    if (res.writableEnded) return;
    if (body) headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(response.status, headers);
  // An event stream's headers go at once, before its first message or keepalive, as a proxy waiting on them expects.
  res.flushHeaders();
  await copyStream(response.body, res, abort.signal);
  finished = true;
  res.end();
}

/**
 * The request line and headers of `req` as a fetch `Request` without a body (the body is passed
 * parsed, or not needed): for the SDK's handler, its era classification, and a server's view.
 */
export function webRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  // From `req.headers`, as the SDK's adapter reads them: an absolute-form target has rewritten Host there.
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || BODY_FRAMING.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: req.method, headers, signal });
  const address = req.socket.remoteAddress;
  // The router's decisions about `req` travel with the request the SDK's handler and the server see.
  rememberRouting(request, { ...routingOf(req), ...(address && { address }) });
  return request;
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/** Copies an event stream as it comes, waiting for `drain` when the socket pushes back; stops when the client leaves. */
async function copyStream(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), gone.then(() => undefined)]);
      // Ended by the drain's answer to a request it cut (drain/cut-answers.ts).
      if (!next || next.done || res.writableEnded) break;
      if (!res.write(next.value)) await Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), gone]);
    }
  } catch {
    // The stream failed or the client left: end what was sent.
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
