import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AuthSettingError, buildServer, Field, RequestContext, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { recordingLogger, startTestIssuer, type TestIssuer } from '../../src';

const UPSTREAM = 'https://upstream.example.com/mcp';

class Actor {
  @Field()
  sub!: string;
}

class Claims {
  @Field()
  sub!: string;
  @Field()
  aud!: string;
  @Field()
  iss!: string;
  @Field()
  scope!: string;
  @Field(() => Actor)
  act!: Actor;
}

class Delegated extends ToolResult {
  @Field(() => Claims, { description: "The exchanged token's claims (never the token)." })
  claims!: Claims;
}

/** Calls "an upstream" on its caller's behalf: shows what the token it got says, never the token. */
@Toolset({ name: 'delegating', description: 'Tools that act on the caller’s behalf elsewhere.' })
class DelegatingToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'The token this server would send the upstream, as its claims.', returns: Delegated })
  async upstream_identity(): Promise<Delegated> {
    const token = await this.context.exchangeToken({ resource: UPSTREAM, scope: 'notes:read' });
    return { message: 'exchanged', claims: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Claims };
  }
}

/** Every log line, to check that no token or secret is in any of them. */
const logger = recordingLogger();

// Real servers, an issuer and key fetches: on a loaded CI machine a test takes seconds, not milliseconds.
jest.setTimeout(30_000);

describe('token exchange (RFC 8693): a tool acts on its caller’s behalf without the caller’s token', () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;
  const clients: Client[] = [];

  const connect = async (target: string, token: string) => {
    const client = new Client({ name: 'caller', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  };
  const identity = async (client: Client) => (await client.callTool({ name: 'upstream_identity', arguments: {} })) as { isError?: boolean; structuredContent?: { claims?: Record<string, unknown> }; content: { text: string }[] };
  const exchanges = () => issuer.tokenRequests.filter((request) => request.grantType === 'urn:ietf:params:oauth:grant-type:token-exchange');

  beforeAll(async () => {
    issuer = await startTestIssuer();
    issuer.registerClient({ clientId: 'notes-server', clientSecret: 'server-secret', scopes: ['notes:read', 'notes:write'] });
    const server = buildServer({ name: 'delegating', version: '1', toolsets: [DelegatingToolset], logger });
    http = await serveHttp([server], { port: 0, drainDelayMs: 0, auth: { issuer: issuer.issuer, clientId: 'notes-server', clientSecret: 'server-secret' }, logger });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await http?.close();
    await issuer?.close();
  });

  it("trades the caller's token at the issuer for one meant for the upstream, with the caller as subject and this server as actor, once per caller until it expires", async () => {
    const callerToken = await issuer.mint({ subject: 'ada', scopes: ['notes:read', 'notes:write'], clientId: 'ada-laptop' });
    const ada = await connect(url, callerToken);
    const first = await identity(ada);
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent?.claims).toMatchObject({ sub: 'ada', aud: UPSTREAM, scope: 'notes:read', act: { sub: 'notes-server' }, iss: issuer.issuer });
    expect(exchanges()).toEqual([{ clientId: 'notes-server', grantType: 'urn:ietf:params:oauth:grant-type:token-exchange', resource: UPSTREAM, scope: 'notes:read' }]);
    // Kept: the next call of the same caller asks the issuer nothing.
    expect((await identity(ada)).structuredContent?.claims).toMatchObject({ sub: 'ada' });
    expect(exchanges()).toHaveLength(1);
    // Another caller gets a token of their own.
    const grace = await connect(url, await issuer.mint({ subject: 'grace', scopes: ['notes:read'] }));
    expect((await identity(grace)).structuredContent?.claims).toMatchObject({ sub: 'grace', aud: UPSTREAM });
    expect(exchanges()).toHaveLength(2);
    // No token, the caller's or an exchanged one, and not the server's secret, in any log line.
    expect(logger.text()).not.toMatch(/eyJ|server-secret/);
    expect(logger.text()).not.toContain(callerToken);
  });

  it('answers an error result saying what to fix when the issuer refuses the exchange, and exchanges nothing on a server without a client', async () => {
    // The issuer no longer knows this server's client secret.
    issuer.registerClient({ clientId: 'notes-server', clientSecret: 'rotated', scopes: ['notes:read'] });
    const refused = await identity(await connect(url, await issuer.mint({ subject: 'linus', scopes: ['notes:read'] })));
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain("The tool 'upstream_identity' could not get a token for the API it calls on your behalf.");
    expect(refused.content[0]!.text).toContain('(invalid_client). Check AUTH_CLIENT_ID and AUTH_CLIENT_SECRET');
    expect(logger.text()).toContain('token exchange failed');

    const plain = buildServer({ name: 'plain', version: '1', toolsets: [DelegatingToolset], logger });
    const other = await serveHttp([plain], { port: 0, drainDelayMs: 0, auth: { issuer: issuer.issuer }, logger });
    let client: Client | undefined;
    try {
      issuer.audience = other.mounts[0]!.url;
      client = await connect(other.mounts[0]!.url, await issuer.mint({ subject: 'ada', scopes: ['notes:read'] }));
      const none = await identity(client);
      expect(none.isError).toBe(true);
      expect(none.content[0]!.text).toContain('This server exchanges no tokens: register it as a client at the issuer and set AUTH_CLIENT_ID and AUTH_CLIENT_SECRET');
    } finally {
      issuer.audience = url;
      await client?.close();
      await other.close();
    }
  });

  it('refuses a client id without its secret, and a token URL without a client, at startup, naming the variable', async () => {
    const server = buildServer({ name: 'half', version: '1', toolsets: [DelegatingToolset], logger });
    await expect(serveHttp([server], { port: 0, auth: { issuer: issuer.issuer, clientId: 'notes-server' }, logger })).rejects.toThrow(AuthSettingError);
    await expect(serveHttp([server], { port: 0, auth: { issuer: issuer.issuer, clientId: 'notes-server' }, logger })).rejects.toThrow(/AUTH_CLIENT_SECRET is unset while AUTH_CLIENT_ID is set/);
    await expect(serveHttp([server], { port: 0, auth: { issuer: issuer.issuer, tokenUrl: `${issuer.issuer}/token` }, logger })).rejects.toThrow(/AUTH_TOKEN_URL is set while AUTH_CLIENT_ID is not/);
  });
});
