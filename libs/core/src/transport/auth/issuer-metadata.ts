import { AuthSettingError } from '../../errors/auth-setting.error';
import { clip } from '../../helpers/client-text';
import { comesSecurely } from './auth-settings';

/** The most bytes of an issuer's metadata document read. */
const MAX_METADATA_BYTES = 256 * 1024;

/**
 * Where an issuer publishes its metadata, in the order tried: RFC 8414 (the well-known path
 * inserted before the issuer's path), then OpenID Connect Discovery (appended, as Keycloak and most
 * OIDC providers serve it), then the RFC 8414 form of the OIDC name.
 */
export function metadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  return [
    new URL(`${issuer.origin}/.well-known/oauth-authorization-server${path}`),
    new URL(`${issuer.origin}${path}/.well-known/openid-configuration`),
    new URL(`${issuer.origin}/.well-known/openid-configuration${path}`),
  ].filter((url, index, all) => all.findIndex((other) => other.href === url.href) === index);
}

/**
 * The issuer's `jwks_uri`, from the first metadata document found whose `issuer` is exactly the
 * configured one (RFC 8414 §3.3). Throws `AuthSettingError` naming AUTH_ISSUER (and AUTH_JWKS_URL,
 * the way around it) with every URL tried and what each gave.
 */
export function discoverJwksUrl(issuer: URL, issuerText: string, timeoutMs: number): Promise<URL> {
  return discoverEndpoint(issuer, issuerText, timeoutMs, { field: 'jwks_uri', what: 'key set', rule: 'keys', variable: 'AUTH_JWKS_URL' });
}

/** The issuer's `token_endpoint`, found as `discoverJwksUrl` finds its key set (AUTH_TOKEN_URL the way around it). */
export function discoverTokenUrl(issuer: URL, issuerText: string, timeoutMs: number): Promise<URL> {
  return discoverEndpoint(issuer, issuerText, timeoutMs, { field: 'token_endpoint', what: 'token endpoint', rule: 'tokens and secrets', variable: 'AUTH_TOKEN_URL' });
}

/** One endpoint the issuer's metadata names: over https (or plain http on loopback), else `AuthSettingError`. */
async function discoverEndpoint(issuer: URL, issuerText: string, timeoutMs: number, endpoint: { field: string; what: string; rule: string; variable: string }): Promise<URL> {
  const tried: string[] = [];
  const unreachable: string[] = [];
  for (const url of metadataUrls(issuer)) {
    const outcome = await fetchMetadata(url, timeoutMs);
    if (outcome instanceof Unreachable) {
      unreachable.push(`${outcome.why} at ${url.href}`);
      tried.push(`${url.href}: ${outcome.why}`);
      continue;
    }
    if (typeof outcome === 'string') {
      tried.push(`${url.href}: ${outcome}`);
      continue;
    }
    if (outcome['issuer'] !== issuerText) {
      tried.push(`${url.href}: its issuer is ${JSON.stringify(clip(String(outcome['issuer']), 120))}, not ${JSON.stringify(issuerText)}`);
      continue;
    }
    const found = outcome[endpoint.field];
    if (typeof found !== 'string' || !URL.canParse(found)) {
      tried.push(`${url.href}: no ${endpoint.field}`);
      continue;
    }
    const foundUrl = new URL(found);
    // The same rule as AUTH_JWKS_URL and AUTH_TOKEN_URL: keys fetched, or secrets sent, over plain http could be swapped or read on the way.
    if (!comesSecurely(foundUrl)) {
      throw new AuthSettingError(
        'AUTH_ISSUER',
        `is ${JSON.stringify(issuerText)}, whose metadata (${url.href}) names the ${endpoint.what} ${JSON.stringify(clip(found, 200))}: ${endpoint.rule} must come over https (plain http only on a loopback address)`,
        `have the issuer publish its ${endpoint.field} over https, or set ${endpoint.variable} to its ${endpoint.what} over https`,
      );
    }
    return foundUrl;
  }
  // Nothing answered at all: a wrong host or port, or an issuer not started, not a wrong identifier.
  if (unreachable.length === tried.length) {
    throw new AuthSettingError(
      'AUTH_ISSUER',
      `is ${JSON.stringify(issuerText)}, which could not be reached (${unreachable[0]})`,
      'start the issuer (to try one locally: toolsets-issuer, from @toolsets/testing), or check the host and port in AUTH_ISSUER',
    );
  }
  throw new AuthSettingError(
    'AUTH_ISSUER',
    `is ${JSON.stringify(issuerText)}, but no metadata naming that issuer was found (${tried.join('; ')})`,
    `give the issuer identifier exactly as its metadata says it (mind a trailing slash), or set ${endpoint.variable} to its ${endpoint.what}`,
  );
}

/** No answer at all from a metadata URL: the connection's error code, or the timeout. */
class Unreachable {
  constructor(readonly why: string) {}
}

async function fetchMetadata(url: URL, timeoutMs: number): Promise<Record<string, unknown> | string | Unreachable> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error', headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      return `HTTP ${response.status}`;
    }
    const text = await response.text();
    if (text.length > MAX_METADATA_BYTES) return 'a document too large to be metadata';
    const document: unknown = JSON.parse(text);
    return typeof document === 'object' && document !== null && !Array.isArray(document) ? (document as Record<string, unknown>) : 'not a JSON object';
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return new Unreachable(`no answer within ${timeoutMs} ms`);
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is its cause's code.
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string') return new Unreachable(code);
    return clip((error as Error).message, 120);
  }
}
