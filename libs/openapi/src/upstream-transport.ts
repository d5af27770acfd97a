import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { BodyRead } from './response-body';

/** What ends an exchange early (its deadline, the caller's cancellation): lighter than an AbortSignal. */
export interface Cancellation {
  readonly aborted: boolean;
  /** Why it was aborted (a `TimeoutError` for the deadline). */
  readonly reason: unknown;
  /** Called once, when it aborts. */
  onAbort(listener: () => void): void;
}

/** One upstream request: the body already encoded. */
export interface UpstreamRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the request, or the body still being read. */
  cancel: Cancellation;
}

/** An upstream answer whose body has not been read yet. */
export interface UpstreamAnswer {
  status: number;
  /** A header's value (repeated ones joined with `, `), or undefined. */
  header(name: string): string | undefined;
  /** Reads the body, decoded, keeping at most `maxBytes`; past that it stops and drops the connection. */
  read(maxBytes: number): Promise<BodyRead>;
  /** Drops the body unread (and its connection). */
  discard(): void;
}

/** What the platform fetch asks for, so the upstream compresses as it did for fetch; bodies are decoded before the cap applies. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * HTTP/1.1 to one upstream over `node:http`/`node:https` with keep-alive agents. The platform
 * `fetch` costs two to three times as much per call on Node 20 (WHATWG streams, `Request` and
 * `Headers` objects, a transferable `AbortSignal` per request): profiled, that was most of a
 * generated tool's own cost. This does what the client needs of it, nothing else: no redirects
 * (the caller follows them, same origin only), no cookies, no cache.
 */
export class UpstreamTransport {
  private readonly http = new HttpAgent({ keepAlive: true });
  private readonly https = new HttpsAgent({ keepAlive: true });

  send(url: URL, request: UpstreamRequest): Promise<UpstreamAnswer> {
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const { cancel } = request;
      if (cancel.aborted) return reject(abortError(cancel));
      const secure = url.protocol === 'https:';
      const headers: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING, ...request.headers };
      if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
      let outgoing;
      try {
        outgoing = (secure ? httpsRequest : httpRequest)(url, { method: request.method, headers, agent: secure ? this.https : this.http }, (incoming) =>
          resolve(new NodeAnswer(incoming, cancel)),
        );
      } catch (error) {
        // An invalid header value, or a URL the platform refuses.
        return reject(error);
      }
      const req = outgoing;
      cancel.onAbort(() => req.destroy(abortError(cancel)));
      req.on('error', reject);
      req.end(request.body);
    });
  }

  /** Closes the idle keep-alive connections (a test's upstream can then stop at once). */
  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

class NodeAnswer implements UpstreamAnswer {
  readonly status: number;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly cancel: Cancellation,
  ) {
    this.status = incoming.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  discard(): void {
    this.incoming.destroy();
  }

  read(maxBytes: number): Promise<BodyRead> {
    const declared = Number(this.header('content-length') ?? NaN);
    if (declared > maxBytes) {
      this.discard();
      return Promise.resolve({ bytes: Buffer.alloc(0), ending: 'over_cap' });
    }
    const decoded = decoding(this.incoming, this.header('content-encoding'));
    return new Promise<BodyRead>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (read: BodyRead) => {
        if (settled) return;
        settled = true;
        resolve(read);
      };
      decoded.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > maxBytes) {
          chunks.push(chunk.subarray(0, maxBytes - size));
          finish({ bytes: Buffer.concat(chunks, maxBytes), ending: 'over_cap' });
          this.incoming.destroy();
          decoded.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      decoded.on('end', () => finish({ bytes: Buffer.concat(chunks, size), ending: 'complete' }));
      const cut = (error: unknown) => finish({ bytes: Buffer.concat(chunks, size), ending: 'cut_off', error: this.cancel.aborted ? abortError(this.cancel) : error });
      decoded.on('error', cut);
      this.incoming.on('error', cut);
      this.incoming.on('close', () => {
        if (!this.incoming.complete) cut(new Error('the connection closed before the body ended'));
      });
    });
  }
}

/** The body as the upstream meant it: gzip, deflate and br undone (the cap counts decoded bytes). */
function decoding(incoming: IncomingMessage, encoding: string | undefined): Readable {
  const coding = encoding?.trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
  return decoder ? incoming.pipe(decoder) : incoming;
}

function abortError(cancel: Cancellation): Error {
  return cancel.reason instanceof Error ? cancel.reason : new DOMException('The operation was aborted.', 'AbortError');
}
