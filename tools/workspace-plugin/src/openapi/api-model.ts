import type { OpenApiDocument } from './load-document';

/**
 * How the document says a credential goes upstream: an apiKey in a header or in the query (under
 * its name), a bearer token (http bearer, OAuth 2, OpenID Connect), or HTTP basic.
 */
export type UpstreamAuth = { kind: 'api-key-header'; name: string } | { kind: 'api-key-query'; name: string } | { kind: 'bearer' } | { kind: 'basic' };

/** What a generated toolset takes from the document as a whole, neutral of OpenAPI and of TypeScript. */
export interface ApiModel {
  /** The toolset's description: the title, and the first line of the description when there is one. */
  description: string;
  /** The first server's URL with its variables' defaults, the default base URL; empty when it is not usable. */
  baseUrl: string;
  /** Why the document's server URL cannot be used as it is (`<NAME>_BASE_URL` must then be set). */
  unusableServer?: string;
  auth?: UpstreamAuth;
  /**
   * The document's other sendable schemes its security requirements name (a boards API's `key`
   * and `token`): `required` when a requirement lists one together with the first; an API key a
   * requirement names as an alternative is sent when given.
   */
  moreAuth: { scheme: string; auth: UpstreamAuth; required: boolean }[];
  /** Every header or query parameter an apiKey scheme names: a credential, never an argument. */
  schemeParameters: { in: 'header' | 'query'; name: string }[];
}

interface RawServer {
  url: string;
  variables?: Record<string, { default?: string; enum?: string[] }>;
}

export function apiModelOf(api: OpenApiDocument): ApiModel {
  const title = api.info.title?.trim() || 'An HTTP API';
  const summary = api.info.description?.trim().split('\n')[0];
  const chosen = chosenScheme(api);
  const server = serverUrlOf(api.servers?.[0] as RawServer | undefined);
  return {
    description: summary ? `${title}: ${summary}`.slice(0, 500) : title,
    ...server,
    ...(chosen && { auth: chosen.auth }),
    moreAuth: chosen ? moreAuthOf(api, chosen) : [],
    schemeParameters: Object.values(schemesOf(api)).flatMap((scheme) => (scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && scheme.name ? [{ in: scheme.in, name: scheme.name }] : [])),
  };
}

function schemesOf(document: unknown): Record<string, RawScheme> {
  return ((document as { components?: { securitySchemes?: Record<string, unknown> } } | null)?.components?.securitySchemes ?? {}) as Record<string, RawScheme>;
}

/** Every security requirement of the document and of its operations, each as the scheme names it lists together. */
function requirementsOf(document: unknown): string[][] {
  const doc = document as { security?: unknown[]; paths?: Record<string, Record<string, { security?: unknown[] } | undefined> | undefined> };
  const lists = [doc.security, ...Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item ?? {}).map((op) => (typeof op === 'object' && op !== null ? op.security : undefined)))];
  return lists.flatMap((list) => (Array.isArray(list) ? list : [])).map((requirement) => Object.keys((requirement ?? {}) as object));
}

/**
 * The sendable schemes other than `chosen` that some requirement names, in document order;
 * required when a requirement lists one together with `chosen` (both at once). Two credentials
 * never write the same upstream header or query key: an alternative that would (a video API's
 * apiKey scheme naming `Authorization` beside its OAuth) is left out, so the one credential the
 * caller gives is sent once; a requirement that needs both at once cannot be met and stops the
 * generator.
 */
function moreAuthOf(document: unknown, chosen: { scheme: string; auth: UpstreamAuth }): ApiModel['moreAuth'] {
  const schemes = schemesOf(document);
  const requirements = requirementsOf(document);
  const named = [...new Set(requirements.flat())].filter((key) => key !== chosen.scheme);
  const written = new Map([[upstreamTarget(chosen.auth), chosen.scheme]]);
  return named.flatMap((scheme) => {
    const auth = schemes[scheme] && authOf(schemes[scheme]);
    if (!auth) return [];
    const required = requirements.some((keys) => keys.includes(chosen.scheme) && keys.includes(scheme));
    // An alternative is sent beside the first only when it is one more API key: an OAuth or basic
    // alternative (the petstore's) would replace the Authorization the first may set.
    if (!required && auth.kind !== 'api-key-header' && auth.kind !== 'api-key-query') return [];
    const target = upstreamTarget(auth);
    const clash = written.get(target);
    if (clash !== undefined) {
      if (!required) return [];
      throw new Error(
        `The document's security requirement needs the schemes '${clash}' and '${scheme}' at once, and both write ${target.replace(':', ' ')} upstream, so no request can carry both. ` +
          'Fix the document (one of them names another header or query key), or list them as alternatives.',
      );
    }
    written.set(target, scheme);
    return [{ scheme, auth, required }];
  });
}

/** Where a credential goes upstream: `header:authorization` for a bearer token or basic, else its header or query key. */
function upstreamTarget(auth: UpstreamAuth): string {
  if (auth.kind === 'api-key-header') return `header:${auth.name.toLowerCase()}`;
  if (auth.kind === 'api-key-query') return `query:${auth.name}`;
  return 'header:authorization';
}

/** Words server variables' defaults use when the document cannot know the value (`your-domain`, `{tenant}`). */
const PLACEHOLDER = /your[-_]?|example|placeholder|<|\{/i;

/**
 * The first server's URL with each variable's default put in. Usable only when that gives an
 * absolute http(s) URL whose host is not a placeholder; else empty, with the reason, so the app
 * refuses to start until `<NAME>_BASE_URL` is set (Kubernetes' `//kubernetes.local`, Jira's
 * `https://{your-domain}.atlassian.net`).
 */
export function serverUrlOf(server: RawServer | undefined): { baseUrl: string; unusableServer?: string } {
  if (!server) return { baseUrl: '', unusableServer: 'it declares no server' };
  let url = server.url;
  for (const [name, variable] of Object.entries(server.variables ?? {})) {
    const value = variable.default ?? '';
    if (!variable.enum && PLACEHOLDER.test(value)) return { baseUrl: '', unusableServer: `its server ${server.url} has the variable {${name}}, whose default ${JSON.stringify(value)} is a placeholder` };
    url = url.split(`{${name}}`).join(value);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return { baseUrl: '', unusableServer: `its server URL ${server.url} is not an absolute http(s) URL` };
  if (PLACEHOLDER.test(parsed.hostname)) return { baseUrl: '', unusableServer: `its server URL ${server.url} names a placeholder host` };
  return { baseUrl: url };
}

type RawScheme = { type?: string; in?: string; name?: string; scheme?: string };

/**
 * The one place that reads `components.securitySchemes`. The scheme the document's own `security`
 * names first wins; else, by kind, an apiKey (header, then query), http bearer, http basic, then
 * OAuth 2 or OpenID Connect (a bearer token). Schemes the client cannot send (mutual TLS, an apiKey
 * in a cookie) are passed over.
 */
export function upstreamAuthOf(document: unknown): UpstreamAuth | undefined {
  return chosenScheme(document)?.auth;
}

function chosenScheme(document: unknown): { scheme: string; auth: UpstreamAuth } | undefined {
  const doc = document as { security?: Record<string, unknown>[] } | null;
  const schemes = schemesOf(document);
  const named = (doc?.security ?? []).flatMap((requirement) => Object.keys(requirement ?? {}));
  const candidates = Object.entries(schemes)
    .map(([key, scheme]) => ({ scheme: key, auth: authOf(scheme), rank: named.includes(key) ? named.indexOf(key) : 1_000 }))
    .filter((candidate): candidate is { scheme: string; auth: UpstreamAuth; rank: number } => candidate.auth !== undefined)
    .map((candidate) => ({ ...candidate, rank: candidate.rank + KIND_ORDER.indexOf(candidate.auth.kind) / 10 }));
  const best = candidates.sort((a, b) => a.rank - b.rank)[0];
  return best && { scheme: best.scheme, auth: best.auth };
}

const KIND_ORDER: readonly UpstreamAuth['kind'][] = ['api-key-header', 'api-key-query', 'bearer', 'basic'];

function authOf(scheme: RawScheme): UpstreamAuth | undefined {
  const http = scheme.type === 'http' ? scheme.scheme?.toLowerCase() : undefined;
  if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) return { kind: 'api-key-header', name: scheme.name };
  if (scheme.type === 'apiKey' && scheme.in === 'query' && scheme.name) return { kind: 'api-key-query', name: scheme.name };
  if (http === 'bearer' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { kind: 'bearer' };
  if (http === 'basic') return { kind: 'basic' };
  return undefined;
}
