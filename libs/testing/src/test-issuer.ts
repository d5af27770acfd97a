import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Jose from 'jose';

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

/** A machine client the issuer's token endpoint knows (`client_credentials`, `client_secret_basic`). */
export interface TestClient {
  clientId: string;
  clientSecret: string;
  /** The scopes it may be granted; a request for others gets only these. */
  scopes: readonly string[];
  /** `sub` of its tokens; default its client id. */
  subject?: string;
}

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
  /** The token endpoint's requests so far: the `resource` and `scope` each asked for. */
  readonly tokenRequests: readonly { clientId: string; resource?: string; scope?: string }[];
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
 */
export async function startTestIssuer(options: { audience?: string; port?: number } = {}): Promise<TestIssuer> {
  const jose = (await import('jose')) as typeof Jose;
  // Each issuer's key ids are its own: a server that cached an earlier run's key 'key-1' would refuse this run's tokens signed under the same id.
  const run = randomBytes(4).toString('hex');
  let key = await newKey(jose, `${run}-1`);
  let generation = 1;
  const foreign = await newKey(jose, `${run}-1`);
  let fetches = 0;
  let down = false;
  let origin = '';
  const clients = new Map<string, TestClient>();
  const tokenRequests: { clientId: string; resource?: string; scope?: string }[] = [];
  const http: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/token' && req.method === 'POST') return void tokenEndpoint(req, res);
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
        response_types_supported: ['code'],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
      return;
    }
    res.writeHead(404).end();
  });
  /** RFC 6749 §4.4: a token for a registered client, for the `resource` it names (RFC 8707), with the scopes asked for that it may have. */
  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const [id, secret] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /i, ''), 'base64').toString('utf8').split(':').map(decodeURIComponent);
    const client = clients.get(id ?? '');
    const refuse = (status: number, error: string) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
    if (!client || client.clientSecret !== secret) return refuse(401, 'invalid_client');
    if (form.get('grant_type') !== 'client_credentials') return refuse(400, 'unsupported_grant_type');
    const resource = form.get('resource') ?? undefined;
    const asked = form.get('scope')?.split(' ').filter(Boolean);
    tokenRequests.push({ clientId: client.clientId, ...(resource && { resource }), ...(asked && { scope: asked.join(' ') }) });
    const scopes = asked ? asked.filter((scope) => client.scopes.includes(scope)) : [...client.scopes];
    const token = await issuer.mint({ subject: client.subject ?? client.clientId, clientId: client.clientId, scopes, ...(resource && { audience: resource }) });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 300, scope: scopes.join(' ') }));
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

async function newKey(jose: typeof Jose, kid: string) {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}
