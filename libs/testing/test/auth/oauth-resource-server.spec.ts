import 'reflect-metadata';
import { Client, ClientCredentialsProvider, discoverOAuthProtectedResourceMetadata, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AuthContext, buildServer, CARD_META_KEY, CLIENT_CREDENTIALS_EXTENSION, Field, Prompt, RequestContext, RequireScopes, Resource, serveHttp, Tool, ToolResult, Toolset, userMessage, type HttpServerHandle, type Logger } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class WhoResult extends ToolResult {
  @Field(() => String, { nullable: true })
  subject!: string | null;

  @Field(() => String, { nullable: true })
  clientId!: string | null;

  @Field(() => [String])
  scopes!: string[];

  @Field()
  sawAuthorizationHeader!: boolean;
}

class Done extends ToolResult {}

@Toolset({ name: 'vault', description: 'Things behind scopes.', credentialHeaders: ['x-vault-pin'] })
@RequireScopes('vault:use')
class VaultToolset {
  static runs = 0;

  constructor(
    private readonly auth: AuthContext,
    private readonly context: RequestContext,
  ) {}

  @Tool({ description: 'Who is calling.', returns: WhoResult, annotations: { readOnlyHint: true } })
  whoami(): WhoResult {
    return {
      message: `You are ${this.auth.subject}.`,
      subject: this.auth.subject ?? null,
      clientId: this.auth.clientId ?? null,
      scopes: [...this.auth.scopes],
      sawAuthorizationHeader: this.context.header('authorization') !== undefined || 'authorization' in this.context.headers,
    };
  }

  @Tool({ description: 'Read the vault.', returns: Done, annotations: { readOnlyHint: true } })
  @RequireScopes('vault:read')
  read(): Done {
    VaultToolset.runs++;
    return { message: 'read' };
  }

  @Tool({ description: 'Write to the vault.', returns: Done })
  @RequireScopes('vault:write', 'vault:read')
  write(): Done {
    VaultToolset.runs++;
    return { message: 'written' };
  }

  @Prompt({ description: 'Open the vault.' })
  open() {
    return [userMessage('Open it.')];
  }

  @Resource({ uri: 'vault://rules', description: 'The rules of the vault.', mimeType: 'text/plain' })
  rules() {
    return 'Knock first.';
  }
}

@Toolset({ name: 'lobby', description: 'Open to any verified caller.' })
class LobbyToolset {
  @Tool({ description: 'Ping.', returns: Done, annotations: { readOnlyHint: true } })
  ping(): Done {
    return { message: 'pong' };
  }
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Era = 'modern' | 'legacy';

interface Answer {
  status: number;
  challenge: string | null;
  body: string;
}

/** One JSON-RPC request as each era's clients send it, with the given headers. */
async function post(url: string, era: Era, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Answer> {
  const modern = era === 'modern';
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
      ...(modern && { 'mcp-method': method }),
      ...(modern && typeof params['name'] === 'string' && { 'mcp-name': params['name'] }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: MODERN_META } : params }),
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.text() };
}

function resultOf(answer: Answer): Record<string, unknown> {
  const text = answer.body.startsWith('event:') ? answer.body.replace(/^event: message\ndata: /, '').trim() : answer.body;
  const message = JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
  if (!message.result) throw new Error(`not a result: ${answer.body}`);
  return message.result;
}

const names = (answer: Answer, key = 'tools') => (resultOf(answer)[key] as { name: string }[]).map((item) => item.name);

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

// Real servers, an issuer and key fetches: on a loaded CI machine a test takes seconds, not milliseconds.
jest.setTimeout(30_000);

describe('an MCP server as an OAuth resource server', () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;
  const log = recordingLogger();
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    const server = buildServer({ name: 'vault', version: '1.0.0', toolsets: [VaultToolset, LobbyToolset], logger: log.logger });
    http = await serveHttp(server, { port: 0, auth: { issuer: issuer.issuer, jwksCooldownMs: 500 }, logger: log.logger });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterAll(async () => {
    await http?.close();
    await issuer?.close();
  });

  const metadataUrl = () => `${http.origin}/.well-known/oauth-protected-resource/mcp`;

  describe.each(['modern', 'legacy'] as const)('answers the %s era alike', (era) => {
    it('401s a request without a token, pointing at the metadata, with no error code', async () => {
      const answer = await post(url, era, 'tools/list');
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    });

    it('401s a non-Bearer scheme as if no token came', async () => {
      const answer = await post(url, era, 'tools/list', {}, { authorization: 'Basic dXNlcjpwYXNz' });
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    });

    it('401s a token in the URL query, even a good one, with invalid_token', async () => {
      const token = await issuer.mint({ scopes: ['vault:use'] });
      const answer = await post(`${url}?access_token=${token}`, era, 'tools/list');
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain('error="invalid_token"');
      expect(answer.challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    });

    it.each([
      ['expired', { expiresIn: -60 }],
      ['without exp', { expiresIn: null }],
      ['not yet valid (nbf)', { notBeforeIn: 600 }],
      ['from another issuer', { issuer: 'https://elsewhere.example' }],
      ['for another audience', { audience: 'https://other.example/mcp' }],
      ['signed by a key the issuer never published', { foreignKey: true }],
      ['signed under an unknown key id', { kid: 'no-such-key' }],
    ] as const)('401s a token %s with invalid_token, saying no more', async (_what, mint) => {
      const answer = await post(url, era, 'tools/list', {}, bearer(await issuer.mint({ scopes: ['vault:use'], ...mint })));
      expect(answer.status).toBe(401);
      expect(answer.challenge).toBe(`Bearer error="invalid_token", error_description="The access token is not valid for this server.", resource_metadata="${metadataUrl()}"`);
      expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_token', error_description: 'The access token is not valid for this server.' });
    });

    it('401s a token whose signature was tampered with', async () => {
      const token = await issuer.mint({ scopes: ['vault:use', 'vault:read', 'vault:write'] });
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${signature}`;
      expect((await post(url, era, 'tools/list', {}, bearer(forged))).status).toBe(401);
    });

    it('accepts aud as an array holding the mount', async () => {
      const token = await issuer.mint({ scopes: ['vault:use'], audience: ['https://other.example', url] });
      expect((await post(url, era, 'tools/list', {}, bearer(token))).status).toBe(200);
    });

    it("lists only what the token's scopes allow: tools, prompts and resources", async () => {
      const none = bearer(await issuer.mint());
      expect(names(await post(url, era, 'tools/list', {}, none))).toEqual(['ping']);
      expect(names(await post(url, era, 'prompts/list', {}, none), 'prompts')).toEqual([]);
      expect(names(await post(url, era, 'resources/list', {}, none), 'resources')).toEqual([]);
      const use = bearer(await issuer.mint({ scopes: ['vault:use'] }));
      expect(names(await post(url, era, 'tools/list', {}, use))).toEqual(['whoami', 'ping']);
      expect(names(await post(url, era, 'prompts/list', {}, use), 'prompts')).toEqual(['open']);
      expect(names(await post(url, era, 'resources/list', {}, use), 'resources')).toEqual(['rules']);
      const all = bearer(await issuer.mint({ scopes: ['vault:write', 'vault:read', 'vault:use', 'unrelated'] }));
      expect(names(await post(url, era, 'tools/list', {}, all))).toEqual(['whoami', 'read', 'write', 'ping']);
      // A scope that only half-allows (vault:write without vault:use) shows nothing of the toolset.
      expect(names(await post(url, era, 'tools/list', {}, bearer(await issuer.mint({ scopes: ['vault:write', 'vault:read'] }))))).toEqual(['ping']);
    });

    it('403s a call without every scope the toolset and the tool need, naming all of them, and runs nothing', async () => {
      const before = VaultToolset.runs;
      const token = await issuer.mint({ scopes: ['vault:use', 'vault:read'] });
      const answer = await post(url, era, 'tools/call', { name: 'write', arguments: {} }, bearer(token));
      expect(answer.status).toBe(403);
      expect(answer.challenge).toBe(
        `Bearer error="insufficient_scope", error_description="This request needs the scope(s) vault:read vault:use vault:write.", scope="vault:read vault:use vault:write", resource_metadata="${metadataUrl()}"`,
      );
      expect(VaultToolset.runs).toBe(before);
      const prompt = await post(url, era, 'prompts/get', { name: 'open' }, bearer(await issuer.mint({ scopes: ['vault:read'] })));
      expect(prompt.status).toBe(403);
      expect(prompt.challenge).toContain('scope="vault:use"');
      const resource = await post(url, era, 'resources/read', { uri: 'vault://rules' }, bearer(await issuer.mint({ scopes: ['vault:read'] })));
      expect(resource.status).toBe(403);
      expect(resource.challenge).toContain('scope="vault:use"');
      const completion = await post(url, era, 'completion/complete', { ref: { type: 'ref/prompt', name: 'open' }, argument: { name: 'door', value: '' } }, bearer(await issuer.mint({ scopes: ['vault:read'] })));
      expect(completion.status).toBe(403);
      expect(completion.challenge).toContain('scope="vault:use"');
      const subscribe = await post(url, era, 'resources/subscribe', { uri: 'vault://rules' }, bearer(await issuer.mint({ scopes: ['vault:read'] })));
      expect(subscribe.status).toBe(403);
    });

    it('reads scopes from scp (an array) and the client from azp, as some issuers write them', async () => {
      const token = await issuer.mint({ subject: 'eve', claims: { scp: ['vault:use', 'vault:read'], azp: 'spa-client' } });
      const who = resultOf(await post(url, era, 'tools/call', { name: 'whoami', arguments: {} }, bearer(token)));
      expect(who['structuredContent']).toMatchObject({ subject: 'eve', clientId: 'spa-client', scopes: ['vault:read', 'vault:use'] });
    });

    it('runs a call whose token holds every scope, and the tool sees who calls but never the token', async () => {
      const token = await issuer.mint({ subject: 'alice', clientId: 'cli-1', scopes: ['vault:use', 'vault:read'] });
      const read = await post(url, era, 'tools/call', { name: 'read', arguments: {} }, bearer(token));
      expect(read.status).toBe(200);
      expect(resultOf(read)['structuredContent']).toEqual({ message: 'read' });
      const who = resultOf(await post(url, era, 'tools/call', { name: 'whoami', arguments: {} }, bearer(token)));
      expect(who['structuredContent']).toEqual({ message: 'You are alice.', subject: 'alice', clientId: 'cli-1', scopes: ['vault:read', 'vault:use'], sawAuthorizationHeader: false });
      expect(JSON.stringify(who)).not.toContain(token);
    });
  });

  it('serves its protected-resource metadata without a token, at the mount path and the root, and the SDK client reads it', async () => {
    const expected = {
      resource: url,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['vault:read', 'vault:use', 'vault:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'vault',
    };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${http.origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(expected);
    }
    expect(await discoverOAuthProtectedResourceMetadata(url)).toEqual(expected);
  });

  it('says on the public index, health and catalog page who issues tokens, and nothing of what only a token may list', async () => {
    const index = (await (await fetch(`${http.origin}/`)).json()) as { servers: Record<string, unknown>[] };
    expect(index.servers).toEqual([{ name: 'vault', url, credentialHeaders: [], oauth: { resource: url, metadata: metadataUrl(), issuer: issuer.issuer } }]);
    expect(await (await fetch(`${http.origin}/health`)).json()).toEqual({ status: 'ok', tools: [], credentialHeaders: [] });
    const page = await (await fetch(`${http.origin}/`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(`Needs an OAuth access token from <code>${issuer.issuer}</code>`);
    expect(page).not.toContain('whoami');
    expect(page).toContain('<div id="count">0 tools</div>');
  });

  it('lets the SDK client run the whole flow: 401, metadata, a client-credentials token for this resource, the call', async () => {
    issuer.registerClient({ clientId: 'robot', clientSecret: 's3cret', scopes: ['vault:use', 'vault:read'], subject: 'robot-7' });
    const client = new Client({ name: 'robot', version: '1.0.0' });
    const provider = new ClientCredentialsProvider({ clientId: 'robot', clientSecret: 's3cret', scope: 'vault:use vault:read', expectedIssuer: issuer.issuer });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ subject: 'robot-7', clientId: 'robot', scopes: ['vault:read', 'vault:use'] });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['whoami', 'read', 'ping']);
    expect(issuer.tokenRequests.at(-1)).toMatchObject({ clientId: 'robot', resource: url });
    // The mount accepts such tokens, so it says so in server/discover (the extension a client-credentials client looks for).
    expect(client.getServerCapabilities()?.extensions).toHaveProperty([CLIENT_CREDENTIALS_EXTENSION]);
    await client.close();
  });

  it('serves a Server Card without a token that shows only what a token without scopes may see, and where to get one', async () => {
    const response = await fetch(`${url}/server-card`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as { remotes: { headers: unknown[] }[]; _meta: Record<string, { extensions: string[]; authorization: unknown; tools: number; groups: { name: string }[] }> };
    expect(card.remotes[0]!.headers).toEqual([{ name: 'Authorization', description: `Bearer access token from ${issuer.issuer} for this endpoint.`, isRequired: true, isSecret: true }]);
    const meta = card._meta[CARD_META_KEY]!;
    expect(meta.authorization).toEqual({ protectedResourceMetadata: metadataUrl(), authorizationServers: [issuer.issuer], scopes: ['vault:read', 'vault:use', 'vault:write'] });
    expect(meta.extensions).toContain(CLIENT_CREDENTIALS_EXTENSION);
    // The vault needs vault:use: a caller without scopes sees the lobby only, and nothing of the vault's credential header.
    expect([meta.tools, meta.groups.map((group) => group.name)]).toEqual([1, ['lobby']]);
    expect(JSON.stringify(card)).not.toMatch(/vault tools|x-vault-pin/);

    const open = buildServer({ name: 'vault', version: '1.0.0', toolsets: [VaultToolset, LobbyToolset], logger: log.logger, card: { public: true } });
    const openHttp = await serveHttp(open, { port: 0, auth: { issuer: issuer.issuer }, logger: log.logger });
    try {
      const openCard = (await (await fetch(`${openHttp.mounts[0]!.url}/server-card`)).json()) as typeof card;
      expect([openCard._meta[CARD_META_KEY]!.tools, openCard._meta[CARD_META_KEY]!.groups.map((group) => group.name)]).toEqual([4, ['vault', 'lobby']]);
      expect(openCard.remotes[0]!.headers).toContainEqual({ name: 'x-vault-pin', description: 'A credential the vault tools read.', isSecret: true });
    } finally {
      await openHttp.close();
    }
  });

  it('marks its lists private: what a caller sees depends on its token', async () => {
    const token = await issuer.mint({ subject: 'bob', scopes: ['vault:use'] });
    expect(resultOf(await post(url, 'modern', 'tools/list', {}, bearer(token)))).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('advertises OAuth client credentials to the 2025-era client in initialize too', async () => {
    const token = await issuer.mint({ subject: 'bob', scopes: ['vault:use'] });
    const client = new LegacyClient({ name: 'old', version: '1.0.0' });
    await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers: bearer(token) } }));
    expect(client.getServerCapabilities()?.extensions).toHaveProperty([CLIENT_CREDENTIALS_EXTENSION]);
    await client.close();
  });

  it('serves the 2025-era SDK client with a token in its headers, and refuses it without', async () => {
    const token = await issuer.mint({ subject: 'bob', scopes: ['vault:use'] });
    const client = new LegacyClient({ name: 'old', version: '1.0.0' });
    await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers: bearer(token) } }));
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ subject: 'bob' });
    await client.close();
    const anonymous = new LegacyClient({ name: 'old', version: '1.0.0' });
    await expect(anonymous.connect(new LegacyHttpTransport(new URL(url)))).rejects.toMatchObject({ code: 401 });
  });

  it('never writes a token to the log, while it says why each was refused', async () => {
    const tokens = await Promise.all([issuer.mint({ expiresIn: -5 }), issuer.mint({ audience: 'https://x.example' }), issuer.mint({ foreignKey: true }), issuer.mint({ scopes: ['vault:use'] })]);
    for (const token of tokens) await post(url, 'modern', 'tools/call', { name: 'whoami', arguments: {} }, bearer(token));
    await post(`${url}?access_token=${tokens[3]}`, 'modern', 'tools/list');
    const text = log.lines.join('\n');
    for (const token of tokens) {
      expect(text).not.toContain(token);
      for (const part of token.split('.')) expect(text).not.toContain(part);
    }
    expect(text).toMatch(/access token refused.*ERR_JWT_EXPIRED/);
    expect(text).toMatch(/access token refused.*ERR_JWT_CLAIM_VALIDATION_FAILED.*aud/);
    // Which side to fix: the audience the token names and the one this server expects.
    expect(text).toContain(`the token is for \\"https://x.example\\"; this server expects ${url}`);
    expect(text).toMatch(/access token refused.*ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    expect(text).toMatch(/access token refused.*access_token/);
  });
});
