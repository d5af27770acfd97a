import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { PAGE_CSP } from '../../catalog-page/page-assets';
import { renderCatalogPage, type PageMount } from '../../catalog-page/render-catalog-page';
import { viewPreviewCsp } from '../../catalog-page/view-preview';

/** Where the page's preview frames load tool views from. */
export const VIEW_PREFIX = '/_view/';

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

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

  /**
   * `GET /_view/<server>/<tool>`: the tool's view, for the page's preview frame, under the CSP a
   * host would build from its declared origins (and sandboxed by it). Nothing for a server that
   * checks tokens, whose tools the page does not show.
   */
  sendView(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const [serverName, toolName] = path.slice(VIEW_PREFIX.length).split('/').map(decodeSegment);
    const mount = this.mounts.find((candidate) => candidate.server.name === serverName && !candidate.auth);
    const view = toolName === undefined ? undefined : mount?.server.catalog.tools.get(toolName)?.view;
    if (!view) return false;
    const body = Buffer.from(view.content.contents.text, 'utf8');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': viewPreviewCsp(view.content),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
      'content-length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  private build() {
    const body = Buffer.from(renderCatalogPage(this.mounts), 'utf8');
    return { body, gzip: gzipSync(body), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
}
