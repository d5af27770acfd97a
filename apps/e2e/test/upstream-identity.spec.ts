import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, Field, RequestContext, serveHttp, Tool, ToolError, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { recordingLogger, startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { closeUpstreams, McpUpstream, settingsFromEnvironment, type UpstreamSettings } from '@toolsets/mcp-upstream';

/** The upstream MCP server: a toolsets app that checks tokens, saying whom each call was for and who acted. */
class Seen extends ToolResult {
  @Field()
  subject!: string;
  @Field({ description: "The token's actor (`act.sub`): who called on the subject's behalf; empty when nobody did." })
  actor!: string;
}

@Toolset({ name: 'vault', description: 'The upstream: who is calling.' })
class VaultToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Whom this call is for.', returns: Seen })
  whoami(): Seen {
    const act = this.context.auth.claims['act'] as { sub?: string } | undefined;
    return { message: 'seen', subject: this.context.auth.subject ?? '', actor: act?.sub ?? '' };
  }
}

/** The front app's toolset, as the mcp generator writes one: each tool one McpUpstream call. */
class WhoamiResult extends ToolResult {
  @Field(() => Seen)
  data!: Seen;
}

let upstream: McpUpstream;

@Toolset({ name: 'front', description: 'The vault, through this app.' })
class FrontToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Whom the upstream sees.', returns: [WhoamiResult, ToolError] })
  whoami(): Promise<WhoamiResult | ToolError> {
    return upstream.call({ tool: 'whoami', output: 'structured' }, this.context) as Promise<WhoamiResult | ToolError>;
  }
}

/** Every log line, to check that no token or secret is in any of them. */
const logger = recordingLogger();

// Two real apps, an issuer and key fetches: on a loaded CI machine a test takes seconds.
jest.setTimeout(30_000);

describe("an upstream MCP server that checks tokens: reached on the caller's behalf or as the app, never with the caller's token", () => {
  let issuer: TestIssuer;
  let vault: HttpServerHandle;
  let front: HttpServerHandle;
  let vaultUrl: string;
  let frontUrl: string;
  const clients: Client[] = [];

  /** The front app's generated settings, the upstream's identity from the environment as an operator sets it. */
  const settings = (env: Record<string, string>) => settingsFromEnvironment('vault', { name: 'vault', transport: { kind: 'http', url: vaultUrl } } satisfies UpstreamSettings, env);
  const call = async (token: string) => {
    const client = new Client({ name: 'caller', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(frontUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return (await client.callTool({ name: 'whoami', arguments: {} })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
  };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    issuer.registerClient({ clientId: 'front-app', clientSecret: 'front-secret', scopes: [] });
    issuer.registerClient({ clientId: 'nightly-report', clientSecret: 'report-secret', scopes: [] });
    // Each app checks tokens for its own URL only: a token for one is refused by the other.
    vault = await serveHttp([buildServer({ name: 'vault', version: '1', toolsets: [VaultToolset], logger })], { port: 0, drainDelayMs: 0, auth: { issuer: issuer.issuer }, logger });
    vaultUrl = vault.mounts[0]!.url;
    front = await serveHttp([buildServer({ name: 'front', version: '1', toolsets: [FrontToolset], logger })], { port: 0, drainDelayMs: 0, auth: { issuer: issuer.issuer, clientId: 'front-app', clientSecret: 'front-secret' }, logger });
    frontUrl = front.mounts[0]!.url;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await upstream?.close();
    await closeUpstreams();
    await front?.close();
    await vault?.close();
    await issuer?.close();
  });

  it('exchange: the upstream sees the caller as subject and this app as actor, with a token for its own URL', async () => {
    upstream = new McpUpstream(settings({ VAULT_MCP_IDENTITY: 'exchange' }), undefined, logger);
    const callerToken = await issuer.mint({ subject: 'ada', audience: frontUrl });
    const answer = await call(callerToken);
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent?.['data']).toEqual({ message: 'seen', subject: 'ada', actor: 'front-app' });
    expect(issuer.tokenRequests.at(-1)).toEqual({ clientId: 'front-app', grantType: 'urn:ietf:params:oauth:grant-type:token-exchange', resource: vaultUrl });
    // Another caller, another token and another connection; neither caller's own token ever reaches the vault (it would be refused there: its audience is the front app).
    expect((await call(await issuer.mint({ subject: 'grace', audience: frontUrl }))).structuredContent?.['data']).toMatchObject({ subject: 'grace', actor: 'front-app' });
    expect(logger.text()).not.toMatch(/eyJ|front-secret/);
    await upstream.close();
  });

  it('exchange refused: a ToolError saying why, and no call made', async () => {
    issuer.registerClient({ clientId: 'front-app', clientSecret: 'rotated', scopes: [] });
    try {
      const answer = await call(await issuer.mint({ subject: 'linus', audience: frontUrl }));
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toMatchObject({ error: 'upstream_unauthorized', detail: expect.stringContaining('No token for the upstream MCP server of vault could be had on your behalf, so the call was not made.') });
      expect(String(answer.structuredContent?.['detail'])).toContain('Check AUTH_CLIENT_ID and AUTH_CLIENT_SECRET');
    } finally {
      issuer.registerClient({ clientId: 'front-app', clientSecret: 'front-secret', scopes: [] });
      await upstream.close();
    }
  });

  it('client-credentials: the upstream sees the app itself, whoever calls; the SDK finds the issuer from its 401', async () => {
    upstream = new McpUpstream(settings({ VAULT_MCP_IDENTITY: 'client-credentials', VAULT_MCP_CLIENT_ID: 'nightly-report', VAULT_MCP_CLIENT_SECRET: 'report-secret', VAULT_MCP_ISSUER: issuer.issuer }), undefined, logger);
    const answer = await call(await issuer.mint({ subject: 'ada', audience: frontUrl }));
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent?.['data']).toEqual({ message: 'seen', subject: 'nightly-report', actor: '' });
    expect(issuer.tokenRequests.at(-1)).toMatchObject({ clientId: 'nightly-report', grantType: 'client_credentials', resource: vaultUrl });
    expect(logger.text()).not.toContain('report-secret');
  });

  it('refuses settings that cannot work, naming the variable', () => {
    expect(() => settings({ VAULT_MCP_IDENTITY: 'passthrough' })).toThrow('VAULT_MCP_IDENTITY must be exchange');
    expect(() => settings({ VAULT_MCP_IDENTITY: 'client-credentials', VAULT_MCP_CLIENT_ID: 'x' })).toThrow('VAULT_MCP_CLIENT_SECRET is not set');
    expect(() => settingsFromEnvironment('vault', { name: 'vault', transport: { kind: 'stdio', command: 'node' } }, { VAULT_MCP_IDENTITY: 'exchange' })).toThrow("VAULT_MCP_IDENTITY is exchange, but vault's upstream runs over stdio");
    expect(() => settingsFromEnvironment('vault', { name: 'vault', transport: { kind: 'http', url: 'http://127.0.0.1:1/mcp' }, secretsFrom: { authorization: 'VAULT_TOKEN' } }, { VAULT_MCP_IDENTITY: 'exchange', VAULT_TOKEN: 't' })).toThrow('keep one of the two');
  });
});
