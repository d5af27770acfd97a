import type { IncomingMessage } from 'node:http';
import { rememberRouting, routingOf } from '../../context/routed-request';
import { BODY_FRAMING } from './fetch-bridge';

/**
 * The headers of a Node request as a fetch `Headers` reads them (`get`, `has`, iteration in name
 * order), without copying them: what `webRequest` builds, for the fast path, which needs no
 * `Request` to hand to the SDK.
 */
class NodeHeaders {
  constructor(private readonly raw: IncomingMessage['headers']) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (BODY_FRAMING.has(key)) return null;
    const value = this.raw[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** As a fetch `Headers` iterates: names sorted, and each `set-cookie` line on its own (the others joined). */
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw).sort()) {
      const raw = this.raw[name];
      if (name === 'set-cookie' && Array.isArray(raw)) {
        for (const line of raw) yield [name, line];
        continue;
      }
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: NodeHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * The line and headers of `req` as the SDK's handlers and this server's read a fetch `Request`
 * (`ctx.http.req`: its headers, URL, method and signal), carrying the router's decisions as
 * `webRequest` does: for the fast path, which hands no `Request` to the SDK.
 */
export function nodeRequestAsFetch(req: IncomingMessage, signal: AbortSignal): Request {
  const view = {
    method: req.method ?? 'POST',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: new NodeHeaders(req.headers),
    signal,
  };
  const address = req.socket.remoteAddress;
  rememberRouting(view, { ...routingOf(req), ...(address && { address }) });
  return view as unknown as Request;
}
