import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const PROTOCOL_HEADERS = ['content-type', 'accept', 'authorization', 'mcp-protocol-version', 'mcp-session-id', 'mcp-method', 'mcp-name', 'last-event-id'];
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, www-authenticate';

/**
 * Opt-in CORS (`CORS_ORIGINS`) for browser-based clients such as the web Inspector: off unless
 * origins are configured. Preflights are answered here; other responses get the allow headers.
 */
export class CorsPolicy {
  readonly #origins: Set<string>;
  readonly #any: boolean;
  readonly #allowHeaders: string;

  constructor(origins: readonly string[], credentialHeaders: readonly string[]) {
    this.#origins = new Set(origins.filter((origin) => origin !== '*'));
    this.#any = origins.includes('*');
    this.#allowHeaders = [...new Set([...PROTOCOL_HEADERS, ...credentialHeaders])].join(', ');
  }

  get enabled(): boolean {
    return this.#any || this.#origins.size > 0;
  }

  /** Adds the allow headers when the request's Origin is allowed; true when it is. */
  apply(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || !(this.#any || this.#origins.has(origin))) return false;
    res.setHeader('access-control-allow-origin', this.#any ? '*' : origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
    return true;
  }

  /** Answers a preflight for an allowed origin (204); false when the origin is not allowed. */
  preflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.apply(req, res)) return false;
    res.writeHead(204, {
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': this.#allowHeaders,
      'access-control-max-age': '600',
    });
    res.end();
    return true;
  }
}
