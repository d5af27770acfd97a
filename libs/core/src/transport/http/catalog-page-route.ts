import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { PAGE_CSP } from '../../catalog-page/page-assets';
import { renderCatalogPage, type PageMount } from '../../catalog-page/render-catalog-page';

/** Whether the caller asked for a page (a browser) rather than JSON (`curl`, scripts, anything else). */
export function wantsHtml(req: IncomingMessage): boolean {
  return new Negotiator(req).mediaType(['application/json', 'text/html']) === 'text/html';
}

/**
 * The human-readable catalog at `GET /` for browsers: every server with its URL, every tool with
 * its description, arguments and result rendered from the schemas it advertises, and how to add
 * the server to a client. The catalog is fixed at startup, so the page is rendered once, on first
 * request, and served with an ETag and gzip; it holds no host name or header value of any caller.
 */
export class CatalogPage {
  #page: { body: Buffer; gzip: Buffer; etag: string } | undefined;

  constructor(private readonly mounts: readonly PageMount[]) {}

  send(req: IncomingMessage, res: ServerResponse): void {
    const page = (this.#page ??= this.build());
    const headers: Record<string, string> = {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
      vary: 'Accept, Accept-Encoding',
      etag: page.etag,
    };
    if (req.headers['if-none-match'] === page.etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const gzip = new Negotiator(req).encoding(['gzip', 'identity']) === 'gzip';
    const body = gzip ? page.gzip : page.body;
    res.writeHead(200, { ...headers, ...(gzip && { 'content-encoding': 'gzip' }), 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private build() {
    const body = Buffer.from(renderCatalogPage(this.mounts), 'utf8');
    return { body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
}
