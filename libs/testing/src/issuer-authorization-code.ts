import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A client the issuer knows: registered in code (`registerClient`) or by a client itself (`POST /register`, RFC 7591). */
export interface IssuerClient {
  clientId: string;
  /** Absent for a public client (`token_endpoint_auth_method: none`): it proves itself with PKCE alone. */
  clientSecret?: string;
  /** The scopes it may be granted; `undefined`: any it asks for. */
  scopes?: readonly string[];
  subject?: string;
  redirectUris?: readonly string[];
  clientName?: string;
}

/** What a grant hands the token endpoint to sign. */
export interface Grant {
  subject: string;
  clientId: string;
  scopes: string[];
  resource?: string;
}

interface PendingCode extends Grant {
  redirectUri: string;
  challenge: string;
  expiresAt: number;
}

const CODE_LIFETIME_MS = 60_000;
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const random = () => randomBytes(24).toString('base64url');

/**
 * The parts of an authorization server that interactive clients (the Inspector, Claude, mcp-remote)
 * need, for a local issuer: dynamic client registration, an authorization page with one button,
 * codes bound to a PKCE S256 challenge, and the `authorization_code` and `refresh_token` grants.
 * Everything is checked as a real server checks it (registered redirect URI, one-time codes,
 * the verifier against the challenge); only the sign-in is not: the page grants as `user`.
 */
export class AuthorizationCodes {
  private readonly codes = new Map<string, PendingCode>();
  private readonly refreshTokens = new Map<string, Grant>();

  constructor(
    private readonly clients: Map<string, IssuerClient>,
    private readonly origin: () => string,
    private readonly user: string,
  ) {}

  /** RFC 7591: registers whatever client asks, public or confidential, with its redirect URIs. */
  register(body: Record<string, unknown>, res: ServerResponse): void {
    const redirectUris = body['redirect_uris'];
    if (!Array.isArray(redirectUris) || redirectUris.length === 0 || !redirectUris.every((uri) => typeof uri === 'string' && URL.canParse(uri))) {
      return json(res, 400, { error: 'invalid_redirect_uri', error_description: 'redirect_uris must list at least one absolute URL.' });
    }
    const method = typeof body['token_endpoint_auth_method'] === 'string' ? body['token_endpoint_auth_method'] : 'client_secret_basic';
    if (!['none', 'client_secret_basic', 'client_secret_post'].includes(method)) {
      return json(res, 400, { error: 'invalid_client_metadata', error_description: `token_endpoint_auth_method ${method} is not supported: use none, client_secret_basic or client_secret_post.` });
    }
    const client: IssuerClient = { clientId: `dyn-${random()}`, redirectUris: redirectUris as string[], ...(method !== 'none' && { clientSecret: random() }), ...(typeof body['client_name'] === 'string' && { clientName: body['client_name'] }) };
    this.clients.set(client.clientId, client);
    json(res, 201, { ...body, client_id: client.clientId, ...(client.clientSecret && { client_secret: client.clientSecret, client_secret_expires_at: 0 }), client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: method });
  }

  /** `GET /authorize`: the page that asks; `POST /authorize`: its answer, sent back to the client's redirect URI with a code. */
  authorize(req: IncomingMessage, res: ServerResponse, form?: URLSearchParams): void {
    const query = form ?? new URL(req.url ?? '/', this.origin()).searchParams;
    const client = this.clients.get(query.get('client_id') ?? '');
    const redirectUri = query.get('redirect_uri') ?? client?.redirectUris?.[0] ?? '';
    // An unknown client or redirect URI gets a page, never a redirect (RFC 6749 §4.1.2.1).
    if (!client) return page(res, 400, 'Unknown client', `No client ${escape(query.get('client_id') ?? '(none)')} is registered here. Register it first (POST /register).`);
    if (!client.redirectUris?.some((registered) => sameRedirect(registered, redirectUri))) return page(res, 400, 'Unregistered redirect URI', `${escape(redirectUri || '(none)')} is not one of the client's redirect URIs.`);
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries({ ...params, ...(query.get('state') && { state: query.get('state')! }), iss: this.origin() })) target.searchParams.set(key, value);
      res.writeHead(302, { location: target.href }).end();
    };
    if (query.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'Only response_type=code is supported.' });
    const challenge = query.get('code_challenge');
    if (!challenge || query.get('code_challenge_method') !== 'S256') return back({ error: 'invalid_request', error_description: 'A PKCE code_challenge with code_challenge_method=S256 is required.' });
    const asked = (query.get('scope') ?? '').split(' ').filter(Boolean);
    const scopes = client.scopes ? asked.filter((scope) => client.scopes!.includes(scope)) : asked;
    if (!form) return consentPage(res, query, client, scopes, this.user);
    if (form.get('decision') !== 'allow') return back({ error: 'access_denied', error_description: 'The user denied the request.' });
    const code = random();
    const resource = query.get('resource') ?? undefined;
    this.codes.set(code, { subject: client.subject ?? this.user, clientId: client.clientId, scopes, redirectUri, challenge, expiresAt: Date.now() + CODE_LIFETIME_MS, ...(resource && { resource }) });
    back({ code });
  }

  /** The `authorization_code` grant: a one-time code, for the client and redirect URI it was issued to, with the verifier of its challenge. */
  redeemCode(client: IssuerClient, form: URLSearchParams): Grant | string {
    const code = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    if (!code || code.expiresAt < Date.now() || code.clientId !== client.clientId) return 'invalid_grant';
    if (form.get('redirect_uri') !== null && form.get('redirect_uri') !== code.redirectUri) return 'invalid_grant';
    const verifier = form.get('code_verifier') ?? '';
    const expected = Buffer.from(code.challenge);
    const actual = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return 'invalid_grant';
    const { subject, clientId, scopes, resource } = code;
    return { subject, clientId, scopes, ...(resource && { resource }) };
  }

  /** The `refresh_token` grant: each refresh token is used once and replaced. */
  redeemRefresh(client: IssuerClient, form: URLSearchParams): Grant | string {
    const grant = this.refreshTokens.get(form.get('refresh_token') ?? '');
    this.refreshTokens.delete(form.get('refresh_token') ?? '');
    if (!grant || grant.clientId !== client.clientId) return 'invalid_grant';
    return grant;
  }

  /** A new refresh token for the grant. */
  refreshTokenFor(grant: Grant): string {
    const token = random();
    this.refreshTokens.set(token, grant);
    return token;
  }
}

/** RFC 8252 §7.3: a loopback redirect URI matches on any port. */
function sameRedirect(registered: string, asked: string): boolean {
  if (registered === asked) return true;
  if (!URL.canParse(asked)) return false;
  const [a, b] = [new URL(registered), new URL(asked)];
  const loopback = (url: URL) => url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  return loopback(a) && loopback(b) && a.hostname === b.hostname && a.pathname === b.pathname;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8"><title>${title}</title><h1>${title}</h1><p>${body}</p>`);
}

function consentPage(res: ServerResponse, query: URLSearchParams, client: IssuerClient, scopes: string[], user: string): void {
  const hidden = [...query].map(([key, value]) => `<input type="hidden" name="${escape(key)}" value="${escape(value)}">`).join('');
  const who = escape(client.clientName ?? client.clientId);
  page(
    res,
    200,
    'Local issuer: allow access?',
    `${who} asks to act as <b>${escape(user)}</b> with ${scopes.length > 0 ? `the scopes <b>${scopes.map(escape).join(' ')}</b>` : 'no scopes'}.` +
      ` This issuer is for trying authorization locally: there is no password.</p>` +
      `<form method="post" action="/authorize">${hidden}<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form><p>`,
  );
}
