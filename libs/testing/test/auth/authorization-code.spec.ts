import 'reflect-metadata';
import { createHash, randomBytes } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientMetadata, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { AuthContext, buildServer, Field, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class WhoResult extends ToolResult {
  @Field(() => String, { nullable: true })
  subject!: string | null;

  @Field(() => [String])
  scopes!: string[];
}

@Toolset({ name: 'desk', description: 'A desk behind a scope.' })
@RequireScopes('desk:use')
class DeskToolset {
  constructor(private readonly auth: AuthContext) {}

  @Tool({ description: 'Who is calling.', returns: WhoResult, annotations: { readOnlyHint: true } })
  whoami(): WhoResult {
    return { message: `You are ${this.auth.subject}.`, subject: this.auth.subject ?? null, scopes: [...this.auth.scopes] };
  }
}

const REDIRECT = 'http://127.0.0.1:33418/callback';

/** An interactive client's provider, as the Inspector or Claude keep one: in memory, the browser played by fetch. */
class BrowserlessProvider implements OAuthClientProvider {
  information?: { client_id: string; client_secret?: string };
  saved?: { access_token: string; refresh_token?: string; token_type: string };
  verifier = '';
  /** Where the client sent the user to sign in. */
  authorizationUrl?: URL;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Browserless', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: { client_id: string; client_secret?: string }) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: { access_token: string; refresh_token?: string; token_type: string }) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept beside the verifier, so the callback leg checks the code came from the server the flow began with (SEP-2352).
  discovery?: OAuthDiscoveryState;
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/** What a user's press of a button on the issuer's page sends: the page's own form, with `decision`. */
async function press(authorizationUrl: URL, decision: 'allow' | 'deny'): Promise<URL> {
  const page = await (await fetch(authorizationUrl)).text();
  const fields = [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [name!, value!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))]);
  const answer = await fetch(new URL('/authorize', authorizationUrl), { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams([...fields, ['decision', decision]]).toString() });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe("the local issuer's authorization-code flow, driven by the SDK's own OAuth client", () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;

  beforeAll(async () => {
    issuer = await startTestIssuer({ user: 'ada' });
    const definition = buildServer({ name: 'desk', version: '1.0.0', toolsets: [DeskToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    http = await serveHttp(definition, { port: 0, auth: { issuer: issuer.issuer }, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterAll(async () => {
    await http?.close();
    await issuer?.close();
  });

  it('registers the client, signs the user in on its page, exchanges the code with the PKCE verifier, and the call is made as that user', async () => {
    const provider = new BrowserlessProvider();
    const first = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    await expect(new Client({ name: 'browserless', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK registered itself (RFC 7591) and sent the user to the page with an S256 challenge for this resource.
    expect(provider.information?.client_id).toMatch(/^dyn-/);
    const asked = provider.authorizationUrl!;
    expect(asked.origin + asked.pathname).toBe(`${issuer.issuer}/authorize`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: url, client_id: provider.information!.client_id });
    const page = await (await fetch(asked)).text();
    expect(page).toContain('Browserless asks to act as <b>ada</b>');

    const back = await press(asked, 'allow');
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('iss')).toBe(issuer.issuer);
    await first.finishAuth(back.searchParams);
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));

    const client = new Client({ name: 'browserless', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ subject: 'ada', scopes: expect.arrayContaining(['desk:use']) });
    expect(issuer.tokenRequests.at(-1)).toMatchObject({ clientId: provider.information!.client_id, grantType: 'authorization_code', resource: url });
    await client.close();
  });

  describe('refuses what a real authorization server refuses', () => {
    let clientId: string;
    beforeAll(async () => {
      const registered = await fetch(`${issuer.issuer}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }) });
      expect(registered.status).toBe(201);
      clientId = ((await registered.json()) as { client_id: string }).client_id;
    });
    const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
      new URL(`${issuer.issuer}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'desk:use', state: 'st-1', resource: url, ...extra })}`);
    const redeem = (code: string, verifier: string) =>
      fetch(`${issuer.issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT }).toString() });

    it('a code redeemed with the wrong verifier, or a second time', async () => {
      const { verifier, challenge } = pkce();
      const code = (await press(authorizeUrl(challenge), 'allow')).searchParams.get('code')!;
      expect(await (await redeem(code, pkce().verifier)).json()).toEqual({ error: 'invalid_grant' });
      // A failed redemption spends the code, as does a good one.
      expect((await redeem(code, verifier)).status).toBe(400);
      const { verifier: second, challenge: secondChallenge } = pkce();
      const fresh = (await press(authorizeUrl(secondChallenge), 'allow')).searchParams.get('code')!;
      expect((await redeem(fresh, second)).status).toBe(200);
      expect((await redeem(fresh, second)).status).toBe(400);
    });

    it('an authorization without an S256 challenge, a denial, and a redirect URI the client never registered', async () => {
      const plain = await fetch(authorizeUrl('x', { code_challenge_method: 'plain' }), { redirect: 'manual' });
      expect(Object.fromEntries(new URL(plain.headers.get('location')!).searchParams)).toMatchObject({ error: 'invalid_request', state: 'st-1', iss: issuer.issuer });
      const denied = await press(authorizeUrl(pkce().challenge), 'deny');
      expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 'st-1' });
      // Never a redirect to a URI the client did not register: a page instead.
      const elsewhere = await fetch(authorizeUrl(pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' });
      expect([elsewhere.status, elsewhere.headers.get('location')]).toEqual([400, null]);
      expect(await elsewhere.text()).toContain('is not one of the client');
    });
  });
});
