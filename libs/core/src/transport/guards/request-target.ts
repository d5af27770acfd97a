import type { IncomingMessage } from 'node:http';

export interface RequestTarget {
  /** Normalised path without a trailing slash (`/` for the root). */
  path: string;
  /** The authority the request names: the absolute target's, else the Host header. */
  authority: string | undefined;
}

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/i;

/**
 * Reads the request target. An absolute-form target (`POST http://host/mcp`, valid HTTP/1.1) is
 * rewritten to origin-form, with its authority standing for Host as RFC 9112 says, so everything
 * downstream sees one shape. Undefined for a target that is neither (`*`, garbage): a 400.
 */
export function requestTarget(req: IncomingMessage): RequestTarget | undefined {
  const raw = req.url ?? '';
  let authority = req.headers.host;
  let originForm = raw;
  if (!raw.startsWith('/')) {
    const match = ABSOLUTE_FORM.exec(raw);
    if (!match) return undefined;
    authority = match[1];
    originForm = (match[2] ?? '/') + (match[3] ?? '');
    req.url = originForm;
    req.headers.host = authority;
  }
  let pathname: string;
  try {
    pathname = new URL(originForm, 'http://target.invalid').pathname;
  } catch {
    return undefined;
  }
  return { path: pathname.replace(/\/+$/, '') || '/', authority };
}

/** How often each of these headers appears, by lower-case name, from the raw header list. */
export function headerCounts(req: IncomingMessage, names: ReadonlySet<string>): Map<string, number> {
  const counts = new Map<string, number>();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (names.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** A header's value, repeated ones joined as a list (as fetch `Headers` joins them). */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
