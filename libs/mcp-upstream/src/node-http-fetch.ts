import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { FetchLike } from '@modelcontextprotocol/client';
import { cutBody, readSingleAnswer } from './single-answer';

/** `fetch` for one upstream connection's HTTP transport, and what ends its kept-alive sockets. */
export interface NodeHttpFetch {
  fetch: FetchLike;
  /** Destroys the idle kept-alive sockets (the connection is closing). */
  close(): void;
}

/** Statuses a `Response` may not be built with a body for. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The SDK's streamable HTTP client transport takes a `fetch`. The platform's costs most of an
 * upstream call's CPU on Node 20 (a `Request`, `Headers` and a transferable `AbortSignal` per
 * request, undici's fetch state machine: BENCHMARKS.md §19). This one sends the transport's
 * requests over `node:http`/`node:https` with keep-alive agents of the connection's own and answers
 * a real `Response` whose body streams as the socket delivers (an SSE stream stays open as long as
 * the upstream keeps it). It listens on the request's signal only while the request and its body
 * run: the transport hands every request the one signal it aborts on close, and a listener left
 * per request would pile up on it.
 *
 * An event stream answering a POST is read here first (`readSingleAnswer`): when it carries only
 * the request's own answer, the transport gets that as a JSON answer, which it reads in one step.
 *
 * What it does not do itself it hands to `fallback` (the platform's `fetch`): a body that is not a
 * string (the OAuth token request's form), and a redirect, which `fetch` follows as it always did.
 * No `accept-encoding` is sent, so answers come as they are.
 */
export function nodeHttpFetch(fallback: FetchLike = fetch): NodeHttpFetch {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const send: FetchLike = (input, init) => {
    const url = input instanceof URL ? input : new URL(String(input));
    const body = init?.body;
    if ((body !== undefined && body !== null && typeof body !== 'string') || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback(input, init);
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const secure = url.protocol === 'https:';
      const headers = headerRecord(init?.headers);
      if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
      let settled = false;
      // Set once the answer has come: its body then ends with the abort's reason instead.
      let abortBody: ((reason: unknown) => void) | undefined;
      const onAbort = () => {
        const reason = abortReason(signal!);
        if (abortBody) return abortBody(reason);
        request.destroy();
        fail(reason);
      };
      const release = () => signal?.removeEventListener('abort', onAbort);
      const fail = (error: unknown) => {
        release();
        if (settled) return;
        settled = true;
        reject(error);
      };
      const request = (secure ? httpsRequest : httpRequest)(url, { method: init?.method ?? 'GET', headers, agent: secure ? agents.https : agents.http }, (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (REDIRECTS.has(status) && incoming.headers.location) {
          // The platform's fetch follows it, as the transport expects of a fetch.
          incoming.resume();
          release();
          settled = true;
          fallback(input, init).then(resolve, reject);
          return;
        }
        const statusText = incoming.statusMessage ?? '';
        if (NULL_BODY_STATUSES.has(status) || init?.method === 'HEAD') {
          settled = true;
          incoming.resume();
          release();
          resolve(new Response(null, { status, statusText, headers: responseHeaders(incoming.headers) }));
          return;
        }
        const answer = (prefix?: Buffer[], ended?: { error?: unknown }) => {
          settled = true;
          const stream = bodyStream(incoming, release, prefix, ended);
          abortBody = stream.abort;
          resolve(new Response(stream.body, { status, statusText, headers: responseHeaders(incoming.headers) }));
        };
        if (init?.method !== 'POST' || !incoming.headers['content-type']?.startsWith('text/event-stream')) return answer();
        // Until it is read, an abort fails the request as one that got no answer (above).
        readSingleAnswer(incoming, (read) => {
          if (settled) return;
          if (read.kind === 'stream') return answer(read.prefix, read.ended);
          settled = true;
          // What follows the answer is read to the end (the socket then serves the next request) and dropped; an abort ends it.
          abortBody = () => incoming.destroy();
          incoming.on('end', release).on('close', release).resume();
          const headers = responseHeaders(incoming.headers);
          headers.set('content-type', 'application/json');
          resolve(new Response(read.json, { status, statusText, headers }));
        });
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      // As the platform's fetch says a request that never got an answer failed.
      request.on('error', (error) => fail(settled ? error : new TypeError('fetch failed', { cause: error })));
      request.end(body ?? undefined);
    });
  };
  return {
    fetch: send,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/**
 * The answer's body as a web stream, paused while its reader is behind; `release` once it ends,
 * fails or is cancelled. `prefix`: bytes already read from `incoming`, first; `ended`: it ended (or
 * failed) while they were read.
 */
function bodyStream(incoming: IncomingMessage, release: () => void, prefix: readonly Buffer[] = [], ended?: { error?: unknown }): { body: ReadableStream<Uint8Array>; abort: (reason: unknown) => void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let done = false;
  const finish = (error?: unknown) => {
    if (done) return;
    done = true;
    release();
    if (error === undefined) controller.close();
    else controller.error(error);
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const chunk of prefix) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (ended) return finish(ended.error);
      incoming.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
      });
      incoming.on('end', () => finish());
      incoming.on('error', (error) => finish(error));
      incoming.on('close', () => {
        if (!incoming.complete) finish(cutBody());
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      done = true;
      release();
      incoming.destroy();
    },
  });
  return {
    body,
    abort: (reason) => {
      finish(reason);
      incoming.destroy();
    },
  };
}

/** `init.headers` in any of the forms `fetch` takes, as lower-case names. */
function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  const entries = headers instanceof Headers ? headers.entries() : Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of entries) if (value !== undefined) record[name.toLowerCase()] = String(value);
  return record;
}

function responseHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

/** What the platform's fetch rejects with on an abort: the signal's reason, or an `AbortError`. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
