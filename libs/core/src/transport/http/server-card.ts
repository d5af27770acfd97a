import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KNOWN_PROTOCOL_VERSIONS } from '../../wire/protocol-revisions';
import type { ServerCardOptions } from '../../server/server-card-options';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { sendJson } from './http-replies';
import type { Mount } from './mount';
import { anonymousView, credentialHeadersOf, headerReaders } from './anonymous-view';
import { CARD_META_KEY, CLIENT_CREDENTIALS_EXTENSION, SERVER_CARD_SCHEMA, SERVER_CARD_TYPE } from '../../wire/server-card';

/** The draft's reserved place for a card: the streamable HTTP endpoint's URL plus this. */
export const SERVER_CARD_SUFFIX = '/server-card';
/** Where xmcp and the earlier draft (SEP-1649) put a domain's card; served for a single mount. */
export const WELL_KNOWN_SERVER_CARD = '/.well-known/mcp/server-card.json';
/** An AI Catalog (the draft's domain-level discovery) listing every mount's card. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const AI_CATALOG_TYPE = 'application/ai-catalog+json';

/** Cards and the catalog are public by design (the draft requires CORS for any origin) and cacheable. */
const CARD_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
  'cache-control': 'public, max-age=3600',
};

/** What a card needs of the server it is served by, known once it listens. */
export interface CardSite {
  /** `PUBLIC_URL`, else the bound origin: where clients reach the endpoints. */
  base: string;
  /** `MCP_NAMESPACE`: the reverse-DNS namespace of names not set per server. */
  namespace?: string;
}

interface Document {
  body: Buffer;
  etag: string;
}

/**
 * Serves each mount's Server Card at `<endpoint>/server-card` (the draft's reserved place), the
 * single mount's also at `/.well-known/mcp/server-card.json`, and an AI Catalog of them all at
 * `/.well-known/ai-catalog.json`: GET and HEAD, with a strong ETag (`If-None-Match` gives 304),
 * `Cache-Control: public, max-age=3600` and CORS for any origin. Each document is written once,
 * on its first request, from the catalog the server already compiled.
 */
export class ServerCards {
  readonly #byPath = new Map<string, Mount>();
  readonly #documents = new Map<string, Document>();

  constructor(
    private readonly mounts: readonly Mount[],
    private readonly site: () => CardSite,
  ) {
    const carded = mounts.filter((mount) => mount.server.card !== false);
    for (const mount of carded) this.#byPath.set(`${mount.path}${SERVER_CARD_SUFFIX}`, mount);
    if (mounts.length === 1 && carded.length === 1) this.#byPath.set(WELL_KNOWN_SERVER_CARD, carded[0]!);
  }

  /** Answers `path` when it is a card or the catalog; false leaves it to the other routes. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const mount = this.#byPath.get(path);
    if (!mount && path !== AI_CATALOG_PATH) return false;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CARD_HEADERS).end();
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD, OPTIONS' });
      return true;
    }
    const document = this.document(path, mount);
    const headers = { ...CARD_HEADERS, etag: document.etag, vary: 'Accept' };
    if (matches(req.headers['if-none-match'], document.etag)) {
      res.writeHead(304, headers).end();
      return true;
    }
    res.writeHead(200, { ...headers, 'content-type': mount ? SERVER_CARD_TYPE : AI_CATALOG_TYPE, 'content-length': String(document.body.length) });
    res.end(req.method === 'HEAD' ? undefined : document.body);
    return true;
  }

  private document(path: string, mount: Mount | undefined): Document {
    const key = mount ? mount.path : AI_CATALOG_PATH;
    let document = this.#documents.get(key);
    if (!document) {
      const site = this.site();
      const value = mount ? serverCard(mount, site) : aiCatalog(this.mounts, site);
      const body = Buffer.from(JSON.stringify(value));
      document = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
      this.#documents.set(key, document);
    }
    return document;
  }
}

/** The Server Card of one mount: identity, its endpoint, and what the catalog holds for a caller without scopes. */
export function serverCard(mount: Mount, site: CardSite): Record<string, unknown> {
  const { server } = mount;
  const options: ServerCardOptions = server.card === false ? {} : server.card;
  const endpoint = `${trimmed(site.base)}${mount.path}`;
  const door = mount.auth?.describe();
  // A mount that checks tokens shows only what a token without scopes sees, unless its card is meant public.
  const view = anonymousView(server, mount.auth !== undefined && !options.public);
  const groups = server.groupsOf(view);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: options.name ?? cardName(server.name, site),
    version: server.version,
    description: options.description ?? defaultDescription(server.instructions, groups.map((group) => group.listed.name)),
    ...links(options),
    remotes: [
      {
        type: 'streamable-http',
        url: endpoint,
        ...nonEmpty('headers', remoteHeaders(mount, door?.issuer, view)),
        supportedProtocolVersions: [...KNOWN_PROTOCOL_VERSIONS].sort().reverse(),
      },
    ],
    _meta: {
      [CARD_META_KEY]: {
        extensions: [...server.extensions, ...(mount.auth ? [CLIENT_CREDENTIALS_EXTENSION] : [])],
        ...(door && { authorization: { protectedResourceMetadata: door.metadata, authorizationServers: [door.issuer], scopes: server.views.scopes } }),
        tools: view.tools.size,
        groups: groups.map(({ listed, tools }) => ({ name: listed.name, description: listed.description, tools })),
        toolList: `${endpoint} (tools/list), or ${trimmed(site.base)}/ for a page`,
      },
    },
  };
}

/** The card's optional identity fields, as the server's options give them. */
function links({ title, websiteUrl, repository, icons }: ServerCardOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ title, websiteUrl, repository, icons }).filter(([, value]) => value !== undefined));
}

/** The draft's AI Catalog: one entry per card, each pointing at it. */
function aiCatalog(mounts: readonly Mount[], site: CardSite): Record<string, unknown> {
  const host = hostOf(site.base);
  return {
    specVersion: '1.0',
    entries: mounts
      .filter((mount) => mount.server.card !== false)
      .map((mount) => ({ identifier: `urn:air:${host}:mcp:${mount.server.name}`, type: SERVER_CARD_TYPE, url: `${trimmed(site.base)}${mount.path}${SERVER_CARD_SUFFIX}` })),
  };
}

/** `<namespace>/<server name>`: MCP_NAMESPACE, else the public host reversed (`mcp.example.com` → `com.example.mcp`), else `local`. */
function cardName(serverName: string, site: CardSite): string {
  return `${site.namespace ?? reversedHost(hostOf(site.base))}/${serverName}`;
}

function reversedHost(host: string): string {
  // An address or a bare name (localhost) says nothing about who publishes the server.
  if (!host.includes('.') || /^[\d.]+$/.test(host) || host.includes(':')) return 'local';
  return host.split('.').reverse().join('.');
}

function hostOf(base: string): string {
  try {
    return new URL(base).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'localhost';
  }
}

/**
 * Headers a client sends: the credential headers the toolsets in the card's view read, and a bearer
 * token where tokens are checked. Never a value, and nothing of a toolset the card's reader cannot see.
 */
function remoteHeaders(mount: Mount, issuer: string | undefined, view: CatalogSlice): Record<string, unknown>[] {
  return [
    ...(issuer ? [{ name: 'Authorization', description: `Bearer access token from ${issuer} for this endpoint.`, isRequired: true, isSecret: true }] : []),
    ...credentialHeadersOf(mount.server, view).map((header) => ({ name: header, description: `A credential the ${headerReaders(mount.server, view, header).join(', ')} tools read.`, isSecret: true })),
  ];
}

/** The first sentence of the instructions, else the groups by name; at most 100 characters (the schema's limit). */
export function defaultDescription(instructions: string | undefined, groups: readonly string[]): string {
  const first = instructions?.trim().split(/(?<=[.!?])\s/)[0]?.trim();
  const text = first || (groups.length > 0 ? `MCP tools for ${groups.join(', ')}.` : 'An MCP server.');
  return text.length <= 100 ? text : `${text.slice(0, 99).trimEnd()}…`;
}

function nonEmpty(key: string, items: readonly unknown[]): Record<string, unknown> {
  return items.length > 0 ? { [key]: items } : {};
}

function trimmed(base: string): string {
  return base.replace(/\/+$/, '');
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim().replace(/^W\//, '');
    return value === '*' || value === etag;
  });
}
