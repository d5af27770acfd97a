import 'reflect-metadata';
import { buildServer, Cache, Field, RateLimit, RequestContext, serveHttp, Tool, ToolResult, Toolset, UseInterceptors, type HttpServerHandle, type Logger } from '@toolsets/core';
import { startTestIssuer, type TestIssuer } from '../../src';

class Profile extends ToolResult {
  @Field()
  computedFor!: string;
}

/** Answers who it computed for (the key's last letter: the whole key would be redacted); a cached answer served to anyone else shows it. */
@Toolset({ name: 'profile', description: 'A cached, per-caller answer.', credentialHeaders: ['x-api-key'] })
class ProfileToolset {
  static runs = 0;

  constructor(private readonly context: RequestContext) {}

  @UseInterceptors(Cache({ ttlMs: 60_000 }))
  @Tool({ description: 'Who the answer is for.', returns: Profile, annotations: { readOnlyHint: true } })
  me(): Profile {
    ProfileToolset.runs++;
    const auth = this.context.auth;
    const key = this.context.hasCredential('x-api-key') ? this.context.credential('x-api-key').slice(-1) : 'none';
    return { message: 'computed', computedFor: `${auth.subject ?? 'no-sub'}/${auth.clientId ?? 'no-client'}/${key}` };
  }
}

class Done extends ToolResult {}

@Toolset({ name: 'limited', description: 'Three calls, then wait.', credentialHeaders: ['x-api-key'] })
class LimitedToolset {
  @UseInterceptors(RateLimit({ capacity: 3, refillPerSecond: 0.01 }))
  @Tool({ description: 'Limited.', returns: Done })
  limited(): Done {
    return { message: 'ran' };
  }
}

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };

interface Reply {
  status: number;
  session: string | null;
  result?: { structuredContent?: Record<string, unknown>; isError?: boolean; content?: { text: string }[] };
}

async function send(url: string, headers: Record<string, string>, method: string, params: object = {}): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: {')) ?? (text.startsWith('{') ? `data: ${text}` : undefined);
  const message = data ? (JSON.parse(data.slice(6)) as { result?: Reply['result'] }) : undefined;
  return { status: response.status, session: response.headers.get('mcp-session-id'), ...(message?.result && { result: message.result }) };
}

const computedFor = (reply: Reply) => reply.result?.structuredContent?.['computedFor'];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// Real servers, an issuer and key fetches: on a loaded CI machine a test takes seconds, not milliseconds.
jest.setTimeout(30_000);

describe('Cache and RateLimit tell callers apart', () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let guarded: string;
  let open: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    // The same toolset on a token-checked mount and on an open one: the Cache declaration is shared.
    const checked = buildServer({ name: 'checked', version: '1', toolsets: [ProfileToolset, LimitedToolset], logger: quiet });
    const public_ = buildServer({ name: 'public', version: '1', toolsets: [ProfileToolset, LimitedToolset], logger: quiet, auth: false });
    http = await serveHttp([checked, public_], { port: 0, drainDelayMs: 0, auth: { issuer: issuer.issuer }, logger: quiet });
    guarded = http.mounts.find((mount) => mount.name === 'checked')!.url;
    open = http.mounts.find((mount) => mount.name === 'public')!.url;
    issuer.audience = guarded;
  });
  afterAll(async () => {
    await http?.close();
    await issuer?.close();
  });

  it("never serves a token-checked mount's answer to an anonymous caller on an open mount", async () => {
    const machine = await issuer.mint({ subject: null, clientId: 'reporting' });
    expect(computedFor(await send(guarded, bearer(machine), 'tools/call', { name: 'me', arguments: {} }))).toBe('no-sub/reporting/none');
    expect(computedFor(await send(open, {}, 'tools/call', { name: 'me', arguments: {} }))).toBe('no-sub/no-client/none');
  });

  it('never shares answers between two clients without a subject calling from one address', async () => {
    const one = await issuer.mint({ subject: null, clientId: 'client-one' });
    const two = await issuer.mint({ subject: null, clientId: 'client-two' });
    expect(computedFor(await send(guarded, bearer(one), 'tools/call', { name: 'me', arguments: {} }))).toBe('no-sub/client-one/none');
    expect(computedFor(await send(guarded, bearer(two), 'tools/call', { name: 'me', arguments: {} }))).toBe('no-sub/client-two/none');
  });

  it("never serves one user's answer under one credential for another credential", async () => {
    const alice = await issuer.mint({ subject: 'alice', clientId: 'app' });
    expect(computedFor(await send(guarded, { ...bearer(alice), 'x-api-key': 'key-A' }, 'tools/call', { name: 'me', arguments: {} }))).toBe('alice/app/A');
    expect(computedFor(await send(guarded, { ...bearer(alice), 'x-api-key': 'key-B' }, 'tools/call', { name: 'me', arguments: {} }))).toBe('alice/app/B');
    // The same caller with the same credential is still served from the cache.
    const runs = ProfileToolset.runs;
    expect(computedFor(await send(guarded, { ...bearer(alice), 'x-api-key': 'key-A' }, 'tools/call', { name: 'me', arguments: {} }))).toBe('alice/app/A');
    expect(ProfileToolset.runs).toBe(runs);
  });

  it('charges a caller without a verified token to its address too: a new credential on each call does not escape the limit', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 12; i++) {
      const reply = await send(open, { 'x-api-key': `made-up-${i}` }, 'tools/call', { name: 'limited', arguments: {} });
      texts.push(reply.result!.isError ? reply.result!.content![0]!.text : 'ran');
    }
    expect(texts.filter((text) => text === 'ran')).toHaveLength(3);
    expect(texts.slice(3).every((text) => text.startsWith('rate_limited: '))).toBe(true);
  });

  it("binds a 2025-era session to the token's issuer, subject and client: another client's token without a subject finds no session", async () => {
    const sessions = await serveHttp(buildServer({ name: 'checked', version: '1', toolsets: [ProfileToolset], logger: quiet }), { port: 0, sessions: true, drainDelayMs: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer }, logger: quiet });
    const guarded = sessions.mounts[0]!.url;
    const one = await issuer.mint({ subject: null, clientId: 'session-one', audience: guarded });
    const opened = await send(guarded, bearer(one), 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    expect(opened.status).toBe(200);
    const session = opened.session!;
    await send(guarded, { ...bearer(one), 'mcp-session-id': session }, 'notifications/initialized');
    expect((await send(guarded, { ...bearer(one), 'mcp-session-id': session }, 'tools/list')).status).toBe(200);
    const other = await issuer.mint({ subject: null, clientId: 'session-two', audience: guarded });
    expect((await send(guarded, { ...bearer(other), 'mcp-session-id': session }, 'tools/list')).status).toBe(404);
    await sessions.close();
  });
});
