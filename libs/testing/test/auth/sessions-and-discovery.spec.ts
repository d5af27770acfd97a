import 'reflect-metadata';
import { buildServer, Field, RequestContext, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class Done extends ToolResult {}

@Toolset({ name: 'vault', description: 'Things behind scopes.' })
class VaultToolset {
  @Tool({ description: 'Peek into the vault.', returns: Done, annotations: { readOnlyHint: true } })
  @RequireScopes('vault:read')
  peek(): Done {
    return { message: 'peeked' };
  }

  @Tool({ description: 'Write into the vault.', returns: Done })
  @RequireScopes('vault:write')
  write(): Done {
    return { message: 'written' };
  }

  @Tool({ description: 'Ping the vault.', returns: Done, annotations: { readOnlyHint: true } })
  ping(): Done {
    return { message: 'pong' };
  }
}

class Seen extends ToolResult {
  @Field()
  sawAuthorization!: boolean;
}

@Toolset({ name: 'echo', description: 'What a tool sees of its request.' })
class EchoToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Whether the request headers a tool sees hold the Authorization header.', returns: Seen, annotations: { readOnlyHint: true } })
  headers(): Seen {
    const saw = this.context.header('authorization') !== undefined || Object.keys(this.context.headers).includes('authorization');
    return { message: saw ? 'saw it' : 'did not see it', sawAuthorization: saw };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };

interface Reply {
  status: number;
  session: string | null;
  message?: { result?: Record<string, unknown>; error?: { message: string } };
}

async function send(url: string, token: string, method: string, params: object = {}, session?: string): Promise<Reply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}`, ...(session && { 'mcp-session-id': session }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: {'));
  return { status: response.status, session: response.headers.get('mcp-session-id'), ...(data ? { message: JSON.parse(data.slice(6)) } : text.startsWith('{') && { message: JSON.parse(text) }) };
}

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
const structured = (reply: Reply) => (reply.message?.result as { structuredContent?: unknown })?.structuredContent;

// Real servers, an issuer and key fetches: on a loaded CI machine a test takes seconds, not milliseconds.
jest.setTimeout(30_000);

describe('token checks with 2025-era sessions and in discovery mode', () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    const server = buildServer({ name: 'vault', version: '1.0.0', toolsets: [VaultToolset, EchoToolset], logger: quiet });
    http = await serveHttp(server, { port: 0, sessions: true, auth: { issuer: issuer.issuer }, logger: quiet });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterAll(async () => {
    await http?.close();
    await issuer?.close();
  });

  it("holds a session to its subject: another user's valid token finds no session", async () => {
    const alice = await issuer.mint({ subject: 'alice', scopes: ['vault:read'] });
    const opened = await send(url, alice, 'initialize', INITIALIZE);
    expect(opened.status).toBe(200);
    const session = opened.session!;
    expect(session).toBeTruthy();
    await send(url, alice, 'notifications/initialized', {}, session);
    expect(structured(await send(url, alice, 'tools/call', { name: 'peek', arguments: {} }, session))).toEqual({ message: 'peeked' });
    const mallory = await issuer.mint({ subject: 'mallory', scopes: ['vault:read', 'vault:write'] });
    expect((await send(url, mallory, 'tools/list', {}, session)).status).toBe(404);
  });

  it('keeps the token from the tools of a session too, whose transport reads the raw headers', async () => {
    const token = await issuer.mint({ subject: 'frank' });
    const { session } = await send(url, token, 'initialize', INITIALIZE);
    await send(url, token, 'notifications/initialized', {}, session!);
    expect(structured(await send(url, token, 'tools/call', { name: 'headers', arguments: {} }, session!))).toEqual({ message: 'did not see it', sawAuthorization: false });
  });

  it("sees in a session what each request's token allows, so a token with more scopes works at once", async () => {
    const first = await issuer.mint({ subject: 'carol', scopes: ['vault:read'] });
    const { session } = await send(url, first, 'initialize', INITIALIZE);
    await send(url, first, 'notifications/initialized', {}, session!);
    const listed = await send(url, first, 'tools/list', {}, session!);
    expect((listed.message!.result!['tools'] as { name: string }[]).map((t) => t.name)).toEqual(['peek', 'ping', 'headers']);
    expect((await send(url, first, 'tools/call', { name: 'write', arguments: {} }, session!)).status).toBe(403);
    const stepped = await issuer.mint({ subject: 'carol', scopes: ['vault:read', 'vault:write'] });
    expect(structured(await send(url, stepped, 'tools/call', { name: 'write', arguments: {} }, session!))).toEqual({ message: 'written' });
  });

  it("finds and describes only what the token allows in discovery mode, and 403s call_tool for a tool it lacks scopes for", async () => {
    const reader = await issuer.mint({ subject: 'dave', scopes: ['vault:read'] });
    const discovery = `${url}?mode=discovery`;
    const { session } = await send(discovery, reader, 'initialize', INITIALIZE);
    await send(discovery, reader, 'notifications/initialized', {}, session!);
    const found = structured(await send(discovery, reader, 'tools/call', { name: 'search_tools', arguments: { query: 'vault', limit: 10 } }, session!)) as { tools: { name: string }[] };
    expect(found.tools.map((tool) => tool.name).sort()).toEqual(['peek', 'ping']);
    const described = await send(discovery, reader, 'tools/call', { name: 'describe_tools', arguments: { names: ['write'] } }, session!);
    expect((described.message!.result as { isError?: boolean }).isError).toBe(true);
    const call = await send(discovery, reader, 'tools/call', { name: 'call_tool', arguments: { name: 'write', arguments: {} } }, session!);
    expect(call.status).toBe(403);
    expect(structured(await send(discovery, reader, 'tools/call', { name: 'call_tool', arguments: { name: 'peek', arguments: {} } }, session!))).toEqual({ message: 'peeked' });
  });
});
