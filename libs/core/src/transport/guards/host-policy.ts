import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { clip } from '../../helpers/client-text';

/** Why a request was refused before routing: the status and the sentence the client gets. */
export interface GuardRefusal {
  status: 400 | 403;
  message: string;
}

const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?$/;

/** `Host` (or an absolute target's authority) as RFC 9110 defines it: a name or address and an optional port. */
export function parseAuthority(value: string): { hostname: string; port?: number } | undefined {
  const match = HOST_PATTERN.exec(value);
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { hostname: match[1].toLowerCase().replace(/\.$/, ''), ...(port !== undefined && { port }) };
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

export interface HostPolicyOptions {
  /** The address the server is bound to. */
  host: string;
  /** Extra host names accepted in `Host` and `Origin` (`ALLOWED_HOSTS`). */
  allowedHosts?: readonly string[];
  /** Origins allowed for browsers (`CORS_ORIGINS`), which also pass the Origin check. */
  corsOrigins?: readonly string[];
}

/**
 * DNS-rebinding protection with a strict parse. `Host` must be a well-formed authority (else 400).
 * When the server is bound to loopback, or `ALLOWED_HOSTS` is set, its name must be a loopback
 * name, the bound address (bound to every address: one of the machine's) or an allowed host
 * (else 403), and so must a present `Origin`'s.
 * Bound to another address without `ALLOWED_HOSTS`, names are not checked (a proxy in front does).
 */
export class HostPolicy {
  readonly checksNames: boolean;
  readonly #allowed: Set<string>;
  readonly #corsOrigins: Set<string>;
  readonly #anyCorsOrigin: boolean;

  constructor(options: HostPolicyOptions) {
    const allowed = (options.allowedHosts ?? []).map((name) => {
      const parsed = parseAuthority(name.trim());
      if (!parsed || parsed.port !== undefined) {
        throw new Error(`ALLOWED_HOSTS entry ${JSON.stringify(name)} is not a host name: give names like api.example.com, without scheme or port.`);
      }
      return parsed.hostname;
    });
    const bound = bracketed(options.host.toLowerCase());
    this.checksNames = isLoopback(bound) || allowed.length > 0;
    this.#allowed = new Set([...allowed, ...(WILDCARD_ADDRESSES.has(bound) ? ownAddresses() : [bound])]);
    this.#corsOrigins = new Set((options.corsOrigins ?? []).filter((origin) => origin !== '*'));
    this.#anyCorsOrigin = (options.corsOrigins ?? []).includes('*');
  }

  /** The refusal for this request, or undefined when it may go on. */
  check(req: IncomingMessage, authority: string | undefined): GuardRefusal | undefined {
    if (authority === undefined) return { status: 400, message: 'Bad Request: the Host header is missing.' };
    const host = parseAuthority(authority);
    if (!host) return { status: 400, message: `Bad Request: malformed Host header ${JSON.stringify(clip(authority))}.` };
    if (this.checksNames && !this.accepts(host.hostname)) {
      return { status: 403, message: `Invalid Host header: ${JSON.stringify(clip(authority))} is not a name this server answers to.` };
    }
    const origin = req.headers.origin;
    if (origin === undefined || this.#anyCorsOrigin || this.#corsOrigins.has(origin)) return undefined;
    const originHost = originHostname(origin);
    if (originHost === undefined) return { status: 403, message: `Invalid Origin header: ${JSON.stringify(clip(origin))} is not a web origin.` };
    if (this.checksNames && !this.accepts(originHost)) {
      return { status: 403, message: `Invalid Origin header: ${JSON.stringify(clip(origin))} may not call this server.` };
    }
    return undefined;
  }

  private accepts(hostname: string): boolean {
    return isLoopback(hostname) || this.#allowed.has(hostname);
  }
}

/**
 * The machine's own interface addresses: bound to every address, each is "the bound address".
 * A Host that is one of them was typed as that address (a kubelet probe, a Prometheus scrape by
 * pod IP), never reached through a rebound DNS name.
 */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .map((address) => bracketed(address.address.toLowerCase()))
    .filter((address) => !address.includes('%'));
}

function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function originHostname(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || /[/?#]./.test(origin.replace(/^https?:\/\//i, ''))) return undefined;
    return parseAuthority(url.host)?.hostname;
  } catch {
    return undefined;
  }
}
