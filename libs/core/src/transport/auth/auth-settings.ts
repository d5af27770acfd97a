import { AuthSettingError } from '../../errors/auth-setting.error';
import { isLoopback } from '../guards/host-policy';
import type { AuthOptions } from '../../server/request/auth-options';

/** Asymmetric JWS algorithms: a resource server holds no secret to verify anything else with. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const DEFAULT_COOLDOWN_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 5_000;

/** Settings checked and with their defaults, except what needs the network or the bound address. */
export interface CheckedAuthOptions {
  issuer: URL;
  /** As written: tokens' `iss` must equal it exactly (a trailing slash matters). */
  issuerText: string;
  audience?: string;
  jwksUrl?: URL;
  algorithms: readonly string[];
  mounts?: ReadonlySet<string>;
  jwksCooldownMs: number;
  fetchTimeoutMs: number;
  /** Out-of-scope calls answered as unknown names rather than `403 insufficient_scope`. */
  hideOutOfScope: boolean;
  /** The clock tokens are checked against. */
  now: () => number;
  /** A loopback issuer is accepted on a server with a public PUBLIC_URL (`AUTH_ALLOW_LOOPBACK_ISSUER=on`). */
  allowLoopbackIssuer: boolean;
  /** This server's client at the issuer, for token exchange. */
  client?: { id: string; secret: string };
  tokenUrl?: URL;
}

/** Checks `options` against the app's mount names; throws `AuthSettingError` naming the variable. */
export function checkAuthOptions(options: AuthOptions, mountNames: readonly string[]): CheckedAuthOptions {
  const issuerText = (options.issuer ?? '').trim();
  const issuer = secureUrl(issuerText, 'AUTH_ISSUER', 'the issuer identifier your authorization server publishes, such as https://auth.example.com/realms/mcp');
  if (issuer.search || issuer.hash) throw new AuthSettingError('AUTH_ISSUER', `is ${JSON.stringify(options.issuer)}, with a query or fragment`, 'give the issuer identifier exactly as the authorization server publishes it (no ? or #)');
  const jwksUrl = options.jwksUrl === undefined || options.jwksUrl === '' ? undefined : secureUrl(options.jwksUrl, 'AUTH_JWKS_URL', "the URL of the issuer's JSON Web Key Set, or leave it unset to find it from the issuer");
  const audience = options.audience?.trim() || undefined;
  const algorithms = checkAlgorithms(options.algorithms);
  const mounts = options.mounts && options.mounts.length > 0 ? new Set(options.mounts) : undefined;
  const unknown = [...(mounts ?? [])].filter((name) => !mountNames.includes(name));
  if (unknown.length > 0) throw new AuthSettingError('AUTH_MOUNTS', `names ${unknown.map((n) => `'${n}'`).join(', ')}, not served by this app`, `list some of: ${mountNames.join(', ')}`);
  return {
    issuer,
    issuerText,
    ...exchangeClient(options),
    ...(audience !== undefined && { audience }),
    ...(jwksUrl && { jwksUrl }),
    algorithms,
    ...(mounts && { mounts }),
    jwksCooldownMs: positive(options.jwksCooldownMs, DEFAULT_COOLDOWN_MS, 'AUTH_JWKS_COOLDOWN_MS'),
    fetchTimeoutMs: positive(options.fetchTimeoutMs, DEFAULT_TIMEOUT_MS, 'AUTH_FETCH_TIMEOUT_MS'),
    hideOutOfScope: outOfScope(options.outOfScope),
    now: clockOf(options.now),
    allowLoopbackIssuer: options.allowLoopbackIssuer === true,
  };
}

/** This server's client at the issuer for token exchange (`AUTH_CLIENT_ID` and `AUTH_CLIENT_SECRET`, both or neither) and its token URL. */
function exchangeClient(options: AuthOptions): Pick<CheckedAuthOptions, 'client' | 'tokenUrl'> {
  const clientId = options.clientId?.trim() || undefined;
  const clientSecret = options.clientSecret || undefined;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    const [set, unset] = clientId === undefined ? ['AUTH_CLIENT_SECRET', 'AUTH_CLIENT_ID'] : ['AUTH_CLIENT_ID', 'AUTH_CLIENT_SECRET'];
    throw new AuthSettingError(unset, `is unset while ${set} is set`, "set both to this server's client at the issuer (token exchange needs both), or neither");
  }
  const tokenUrl = options.tokenUrl ? secureUrl(options.tokenUrl, 'AUTH_TOKEN_URL', "the issuer's token endpoint, or leave it unset to find it from the issuer") : undefined;
  if (tokenUrl && clientId === undefined) throw new AuthSettingError('AUTH_TOKEN_URL', 'is set while AUTH_CLIENT_ID is not, so no token would be exchanged', "set AUTH_CLIENT_ID and AUTH_CLIENT_SECRET to this server's client at the issuer, or unset AUTH_TOKEN_URL");
  return { ...(clientId && clientSecret && { client: { id: clientId, secret: clientSecret } }), ...(tokenUrl && { tokenUrl }) };
}

/** Whether keys and tokens may be fetched from `url`: over https, or plain http on a loopback host (a local issuer for development and tests). */
export function comesSecurely(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
}

/** An https URL, or http on a loopback host. */
function secureUrl(value: string, variable: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthSettingError(variable, `is ${JSON.stringify(value)}, not a URL`, `give ${what}`);
  }
  if (comesSecurely(url)) return url;
  throw new AuthSettingError(variable, `is ${JSON.stringify(value)}: tokens and keys must come over https (plain http only on a loopback address)`, `give ${what}, over https`);
}

function clockOf(now: AuthOptions['now']): () => number {
  return typeof now === 'function' ? now : Date.now;
}

function outOfScope(value: AuthOptions['outOfScope']): boolean {
  if (value === undefined || value === 'step-up') return false;
  if (value === 'hide') return true;
  throw new AuthSettingError('AUTH_OUT_OF_SCOPE', `is ${JSON.stringify(value)}`, "use step-up (403 insufficient_scope naming the scopes, the default) or hide (answered as an unknown name)");
}

function checkAlgorithms(algorithms: readonly string[] | undefined): readonly string[] {
  if (algorithms === undefined || algorithms.length === 0) return ASYMMETRIC_ALGORITHMS;
  for (const algorithm of algorithms) {
    if (ASYMMETRIC_ALGORITHMS.includes(algorithm)) continue;
    const why =
      algorithm.toLowerCase() === 'none'
        ? "'none' accepts unsigned tokens"
        : /^HS\d+$/i.test(algorithm)
          ? `${algorithm} is symmetric: verifying it needs the secret that also signs tokens`
          : `${JSON.stringify(algorithm)} is not a JWS signing algorithm this server verifies`;
    throw new AuthSettingError('AUTH_ALGORITHMS', `includes ${JSON.stringify(algorithm)}: ${why}`, `list asymmetric algorithms only, comma-separated, from ${ASYMMETRIC_ALGORITHMS.join(', ')}`);
  }
  return [...new Set(algorithms)];
}

function positive(value: number | undefined, fallback: number, variable: string): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new AuthSettingError(variable, `is ${JSON.stringify(value)}`, 'give a positive whole number of milliseconds');
}
