import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Jose from 'jose';
import { AuthorizationCodes, type Grant, type IssuerClient } from './issuer-authorization-code';

/** What a minted token says; anything else goes in `claims`. */
export interface MintOptions {
  /** `sub`; default `user-1`. `null` leaves `sub` out (a client-credentials token of some issuers). */
  subject?: string | null;
  /** Space-separated into `scope`; default none. */
  scopes?: readonly string[];
  /** `aud`: a string or several; default the issuer's `audience`. */
  audience?: string | readonly string[];
  /** `iss`; default the issuer's own. */
  issuer?: string;
  /** Seconds until `exp` (negative: already expired); default 300. `null` leaves `exp` out. */
  expiresIn?: number | null;
  /** Seconds until `nbf`. */
  notBeforeIn?: number;
  clientId?: string;
  /** Sign with this key id (one the key set may not hold), or with another issuer's key. */
  kid?: string;
  /** Sign with a key the issuer never published (a forged token). */
  foreignKey?: boolean;
  claims?: Record<string, unknown>;
}

/**
 * A client the issuer's token endpoint knows (`client_credentials` and RFC 8693 token exchange; with
 * `redirectUris`, also `authorization_code`), authenticated by `client_secret_basic` or `client_secret_post`.
 */
export interface TestClient {
  clientId: string;
  clientSecret: string;
  /** The scopes it may be granted; a request for others gets only these. */
  scopes: readonly string[];
  /** `sub` of its client-credentials tokens; default its client id. */
  subject?: string;
  /** Where the authorization page may send it back with a code (loopback URIs match on any port). */
  redirectUris?: readonly string[];
}

/** One token the token endpoint granted. */
export interface TokenRequest {
  clientId: string;
  grantType: string;
  resource?: string;
  /** RFC 8693's `audience`, for a token exchange. */
  audience?: string;
  scope?: string;
}

/** RFC 8693's grant type, and the token type it trades. */
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface TestIssuer {
  /** `http://127.0.0.1:<port>`: set it as AUTH_ISSUER. */
  readonly issuer: string;
  /** Its key set's URL (found from its metadata; or set as AUTH_JWKS_URL). */
  readonly jwksUrl: string;
  /** How many times the key set was fetched. */
  readonly jwksFetches: number;
  /** The default audience of minted tokens (the MCP endpoint's URL, once known). */
  audience: string;
  /** A signed ES256 access token. */
  mint(options?: MintOptions): Promise<string>;
  /**
   * Lets a client get tokens from `POST /token` with the `client_credentials` grant, so the SDK's
   * own `ClientCredentialsProvider` can run the whole flow: 401, metadata, token, retry.
   */
  registerClient(client: TestClient): void;
  /** The token endpoint's granted requests so far: the grant, and the `resource` and `scope` each asked for. */
  readonly tokenRequests: readonly TokenRequest[];
  /** A new signing key with a new `kid`: the key set then holds only it. */
  rotate(): Promise<void>;
  /** While true, every key set request fails (500): the issuer is down. */
  down: boolean;
  close(): Promise<void>;
}

/**
 * An OAuth authorization server for tests and for trying authorization locally, on loopback (`port`,
 * default any free one; `toolsets-issuer` runs one from the shell): its RFC 8414 and OpenID metadata, and a
 * JSON Web Key Set with one ES256 key it signs tokens with. Tokens are minted with jose's
 * `SignJWT`, so a server under test verifies real signatures against a real key set over HTTP.
 * Grants: `client_credentials` and token exchange (RFC 8693) for registered clients; `authorization_code` with PKCE (S256) and
 * `refresh_token` for registered and dynamically registered (`POST /register`) clients, whose
 * authorization page grants as `user` (default `user-1`) at the press of a button.
 */
export async function startTestIssuer(options: { audience?: string; port?: number; user?: string } = {}): Promise<TestIssuer> {
  const jose = (await import('jose')) as typeof Jose;
  // Each issuer's key ids are its own: a server that cached an earlier run's key 'key-1' would refuse this run's tokens signed under the same id.
  const run = randomBytes(4).toString('hex');
  let key = await newKey(jose, `${run}-1`);
  let generation = 1;
  const foreign = await newKey(jose, `${run}-1`);
  let fetches = 0;
  let down = false;
  let origin = '';
  const clients = new Map<string, IssuerClient>();
  const tokenRequests: TokenRequest[] = [];
  const codes = new AuthorizationCodes(clients, () => origin, options.user ?? 'user-1');
  const http: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/token' && req.method === 'POST') return void tokenEndpoint(req, res);
    if (path === '/register' && req.method === 'POST') return void readBody(req).then((body) => registration(body, res));
    if (path === '/authorize' && req.method === 'GET') return codes.authorize(req, res);
    if (path === '/authorize' && req.method === 'POST') return void readBody(req).then((body) => codes.authorize(req, res, new URLSearchParams(body)));
    if (path === '/jwks') {
      fetches++;
      if (down) return void res.writeHead(500).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk] }));
      return;
    }
    if (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration') {
      const metadata = {
        issuer: origin,
        jwks_uri: `${origin}/jwks`,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token', TOKEN_EXCHANGE],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
      return;
    }
    res.writeHead(404).end();
  });
  /**
   * RFC 6749 §4.4 (`client_credentials`), §4.1.3 (`authorization_code`, with the PKCE verifier) and §6
   * (`refresh_token`): a token for the `resource` named (RFC 8707), with the scopes asked for that the client may have.
   */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = new URLSearchParams(await readBody(req));
    const refuse = (status: number, error: string) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
    const client = authenticated(req, form);
    if (!client) return refuse(401, 'invalid_client');
    const grantType = form.get('grant_type') ?? '';
    let grant: (Grant & { audience?: string; actor?: string }) | string;
    if (grantType === 'client_credentials' && client.clientSecret !== undefined) grant = credentialsGrant(client, form);
    else if (grantType === TOKEN_EXCHANGE && client.clientSecret !== undefined) grant = await exchangeGrant(client, form);
    else if (grantType === 'authorization_code') grant = codes.redeemCode(client, form);
    else if (grantType === 'refresh_token') grant = codes.redeemRefresh(client, form);
    else return refuse(400, 'unsupported_grant_type');
    if (typeof grant === 'string') return refuse(400, grant);
    tokenRequests.push({
      clientId: client.clientId,
      grantType,
      ...(grant.resource && { resource: grant.resource }),
      ...(grant.audience && { audience: grant.audience }),
      ...(form.get('scope') !== null && { scope: form.get('scope')!.split(' ').filter(Boolean).join(' ') }),
    });
    const audience = grant.audience ?? grant.resource;
    const token = await issuer.mint({ subject: grant.subject, clientId: client.clientId, scopes: grant.scopes, ...(audience && { audience }), ...(grant.actor && { claims: { act: { sub: grant.actor } } }) });
    const refresh = grantType === 'client_credentials' || grantType === TOKEN_EXCHANGE ? undefined : codes.refreshTokenFor(grant);
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(
      JSON.stringify({
        access_token: token,
        token_type: 'Bearer',
        expires_in: 300,
        scope: grant.scopes.join(' '),
        ...(grantType === TOKEN_EXCHANGE && { issued_token_type: ACCESS_TOKEN_TYPE }),
        ...(refresh && { refresh_token: refresh }),
      }),
    );
  }
  function credentialsGrant(client: IssuerClient, form: URLSearchParams): Grant {
    const resource = form.get('resource') ?? undefined;
    const asked = form.get('scope')?.split(' ').filter(Boolean);
    const scopes = asked ? asked.filter((scope) => !client.scopes || client.scopes.includes(scope)) : [...(client.scopes ?? [])];
    return { subject: client.subject ?? client.clientId, clientId: client.clientId, scopes, ...(resource && { resource }) };
  }
  /**
   * RFC 8693: the subject token, one this issuer signed and still valid, traded for a token for the
   * `audience` or `resource` asked for (one of them is required here), with the subject's `sub`, the
   * scopes asked for that both the subject token and the client hold (all the subject's when none are
   * asked for), and the client as the actor (`act`), as the RFC's delegation semantics have it.
   */
  async function exchangeGrant(client: IssuerClient, form: URLSearchParams): Promise<(Grant & { audience?: string; actor: string }) | string> {
    const subjectToken = form.get('subject_token');
    if (!subjectToken || form.get('subject_token_type') !== ACCESS_TOKEN_TYPE) return 'invalid_request';
    const audience = form.get('audience') ?? undefined;
    const resource = form.get('resource') ?? undefined;
    if (!audience && !resource) return 'invalid_target';
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(subjectToken, jose.createLocalJWKSet({ keys: [key.publicJwk] }), { issuer: origin }));
    } catch {
      return 'invalid_grant';
    }
    const held = typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : [];
    const allowed = held.filter((scope) => !client.scopes || client.scopes.includes(scope));
    const asked = form.get('scope')?.split(' ').filter(Boolean);
    return { subject: payload.sub ?? '', clientId: client.clientId, scopes: asked ? asked.filter((scope) => allowed.includes(scope)) : allowed, actor: client.clientId, ...(audience && { audience }), ...(resource && { resource }) };
  }
  /** The client by `client_secret_basic`, `client_secret_post`, or (a public client) its id alone. */
  function authenticated(req: IncomingMessage, form: URLSearchParams): IssuerClient | undefined {
    const basic = /^Basic /i.test(req.headers.authorization ?? '') ? Buffer.from(req.headers.authorization!.slice(6), 'base64').toString('utf8').split(':').map(decodeURIComponent) : undefined;
    const [id, secret] = basic ?? [form.get('client_id') ?? '', form.get('client_secret') ?? undefined];
    const client = clients.get(id ?? '');
    if (!client) return undefined;
    return client.clientSecret === undefined ? (secret === undefined ? client : undefined) : client.clientSecret === secret ? client : undefined;
  }
  function registration(body: string, res: ServerResponse): void {
    let metadata: unknown;
    try {
      metadata = JSON.parse(body);
    } catch {
      metadata = undefined;
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client_metadata', error_description: 'The body must be a JSON object of client metadata.' }));
    codes.register(metadata as Record<string, unknown>, res);
  }

  // Loopback only: a server accepts plain-http issuers only there, and this one signs whatever is asked.
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const issuer: TestIssuer = {
    issuer: origin,
    jwksUrl: `${origin}/jwks`,
    get jwksFetches() {
      return fetches;
    },
    audience: options.audience ?? 'urn:test:mcp',
    get down() {
      return down;
    },
    set down(value: boolean) {
      down = value;
    },
    async mint(mint: MintOptions = {}) {
      const signer = mint.foreignKey ? foreign : key;
      let jwt = new jose.SignJWT({
        ...(mint.scopes && { scope: mint.scopes.join(' ') }),
        ...(mint.clientId && { client_id: mint.clientId }),
        ...mint.claims,
      })
        .setProtectedHeader({ alg: 'ES256', kid: mint.kid ?? signer.kid, typ: 'at+jwt' })
        .setIssuer(mint.issuer ?? origin)
        .setAudience((mint.audience ?? issuer.audience) as string | string[])
        .setIssuedAt();
      if (mint.subject !== null) jwt = jwt.setSubject(mint.subject ?? 'user-1');
      if (mint.expiresIn !== null) jwt.setExpirationTime(Math.floor(Date.now() / 1000) + (mint.expiresIn ?? 300));
      if (mint.notBeforeIn !== undefined) jwt.setNotBefore(Math.floor(Date.now() / 1000) + mint.notBeforeIn);
      return jwt.sign(signer.privateKey);
    },
    registerClient(client: TestClient) {
      clients.set(client.clientId, client);
    },
    tokenRequests,
    async rotate() {
      generation++;
      key = await newKey(jose, `${run}-${generation}`);
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
  return issuer;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function newKey(jose: typeof Jose, kid: string) {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}
