import type { VerifiedCaller } from '../../context/auth-context';
import { rememberSubject, type SubjectExchanger, type TokenExchangeRequest } from '../../context/token-exchange';
import { TokenExchangeError } from '../../errors/token-exchange.error';
import { clip } from '../../helpers/client-text';

/** The server's own client at the issuer, and where it exchanges tokens. */
export interface TokenExchangeSettings {
  clientId: string;
  clientSecret: string;
  /** The issuer's token endpoint: AUTH_TOKEN_URL, else its metadata's `token_endpoint`, found on first use. */
  tokenUrl: () => Promise<URL>;
  fetchTimeoutMs: number;
  now: () => number;
}

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
/** How long a token the issuer gave no `expires_in` for is kept. */
const DEFAULT_LIFETIME_MS = 60_000;
/** The most bytes of a token endpoint's answer read. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * OAuth 2.0 Token Exchange (RFC 8693) for a mount that checks tokens: the caller's verified access
 * token, which is meant for this server alone, traded at the issuer for one meant for the API a tool
 * calls on the caller's behalf (its `audience` or `resource`), the server authenticating as its own
 * client (`client_secret_basic`). What was exchanged is kept per caller (`context/token-exchange.ts`).
 */
export class TokenExchanger implements SubjectExchanger {
  constructor(private readonly settings: TokenExchangeSettings) {}

  /** Keeps `token`, the one `caller` was verified from, for the exchanges its calls ask for. */
  remember(caller: VerifiedCaller, token: string): void {
    rememberSubject(caller, token, this);
  }

  now(): number {
    return this.settings.now();
  }

  /** One RFC 8693 exchange at the token endpoint: the token and how long it lives. */
  async exchange(subjectToken: string, request: TokenExchangeRequest): Promise<{ token: string; lifetimeMs: number }> {
    const tokenUrl = await this.settings.tokenUrl().catch((error: unknown) => {
      throw new TokenExchangeError(`The issuer's token endpoint could not be found: ${(error as Error).message}`);
    });
    const form = new URLSearchParams({ grant_type: GRANT, subject_token: subjectToken, subject_token_type: ACCESS_TOKEN, requested_token_type: ACCESS_TOKEN });
    if (request.audience) form.set('audience', request.audience);
    if (request.resource) form.set('resource', request.resource);
    if (request.scope) form.set('scope', request.scope);
    const basic = Buffer.from(`${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`).toString('base64');
    let response: Response;
    try {
      response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        redirect: 'error',
        signal: AbortSignal.timeout(this.settings.fetchTimeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new TokenExchangeError(`The token exchange at ${tokenUrl.href} could not be reached (${cause}): check AUTH_TOKEN_URL or the issuer, and that it answers within AUTH_FETCH_TIMEOUT_MS.`);
    }
    const answer = jsonObject((await response.text()).slice(0, MAX_ANSWER_BYTES));
    if (!response.ok) {
      const error = typeof answer['error'] === 'string' ? answer['error'] : `HTTP ${response.status}`;
      const description = typeof answer['error_description'] === 'string' ? `: ${clip(answer['error_description'], 200)}` : '';
      throw new TokenExchangeError(`The issuer refused to exchange the caller's token for ${describe(request)} (${clip(error, 80)}${description}). ${fixFor(error)}`);
    }
    const token = answer['access_token'];
    if (typeof token !== 'string' || token === '') throw new TokenExchangeError(`The token exchange at ${tokenUrl.href} answered without an access_token (HTTP ${response.status}): it is not an RFC 8693 token endpoint, or it does not support the exchange.`);
    const expiresIn = answer['expires_in'];
    return { token, lifetimeMs: typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_LIFETIME_MS };
  }
}

/** The token endpoint's answer as an object; anything else as an empty one (an answer without a token). */
function jsonObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function describe(request: TokenExchangeRequest): string {
  return [request.audience && `audience ${JSON.stringify(clip(request.audience, 120))}`, request.resource && `resource ${JSON.stringify(clip(request.resource, 200))}`].filter(Boolean).join(' and ');
}

function fixFor(error: string): string {
  if (error === 'invalid_client') return 'Check AUTH_CLIENT_ID and AUTH_CLIENT_SECRET: the issuer does not know this server as that client.';
  if (error === 'unsupported_grant_type' || error === 'unauthorized_client') return "Allow this server's client the token-exchange grant (urn:ietf:params:oauth:grant-type:token-exchange) at the issuer.";
  if (error === 'invalid_target') return 'The issuer does not issue tokens for that audience or resource to this client: register the target API at the issuer, or fix its name.';
  if (error === 'invalid_scope') return 'Ask for scopes the issuer grants this client at the target.';
  return 'See the issuer\'s log for the exchange.';
}
