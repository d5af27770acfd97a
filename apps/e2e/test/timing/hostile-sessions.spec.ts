import { MCP_HEADERS, rawRequest, type RawResponse } from '../support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from '../support/server-process';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
const NOT_FOUND = 'Session not found: it expired or was closed.';

/** What one caller sends: its credential (or none) and its loopback source address. */
interface Caller {
  token?: string;
  from?: string;
}

function headersOf(caller: Caller, session?: string): Record<string, string> {
  return {
    ...MCP_HEADERS,
    ...(caller.token !== undefined && { 'x-demo-token': caller.token }),
    ...(session !== undefined && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
  };
}

describe('2025-era sessions against hostile callers (credential-demo app, MCP_SESSIONS=on)', () => {
  let server: ServerProcess;

  const open = async (caller: Caller = {}): Promise<RawResponse & { session: string }> => {
    const answer = await rawRequest(server.origin, '/mcp', { headers: headersOf(caller), body: INITIALIZE, localAddress: caller.from });
    return { ...answer, session: answer.headers['mcp-session-id'] as string };
  };
  const post = (caller: Caller, session: string, message: object) =>
    rawRequest(server.origin, '/mcp', { headers: headersOf(caller, session), body: JSON.stringify(message), localAddress: caller.from });
  const listTools = (caller: Caller, session: string) => post(caller, session, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const whoami = (caller: Caller, session: string) => post(caller, session, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } });

  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'), { MCP_SESSIONS: 'on', MAX_SESSIONS_PER_CLIENT: '20', SESSION_IDLE_UNUSED_MS: '1500' });
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  describe('bound to the credential it was opened with', () => {
    let session: string;
    const owner: Caller = { token: 'owner-token' };
    beforeAll(async () => {
      session = (await open(owner)).session;
      expect((await whoami(owner, session)).body).toContain('"account"');
    });

    it.each<[string, Caller]>([
      ['another credential', { token: 'thief-token' }],
      ['no credential', {}],
      ['an empty credential', { token: '' }],
    ])('answers a POST with %s as if the session did not exist', async (_what, thief) => {
      const stolen = await whoami(thief, session);
      expect(stolen.status).toBe(404);
      expect(stolen.body).toContain(NOT_FOUND);
    });

    it('refuses the event stream (GET) and DELETE to another caller the same way, and the session lives on', async () => {
      const thief: Caller = { token: 'thief-token' };
      const stream = await rawRequest(server.origin, '/mcp', { method: 'GET', headers: { ...headersOf(thief, session), accept: 'text/event-stream' } });
      expect(stream.status).toBe(404);
      const ended = await rawRequest(server.origin, '/mcp', { method: 'DELETE', headers: headersOf(thief, session) });
      expect(ended.status).toBe(404);
      expect(ended.body).toContain(NOT_FOUND);
      expect((await whoami(owner, session)).status).toBe(200);
    });
  });

  it('caps the sessions one address holds, while another address still gets in', async () => {
    const flood: Caller = { from: '127.0.0.3' };
    const answers = await Promise.all(Array.from({ length: 30 }, () => open(flood)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(Array(10).fill(429));
    expect(refused[0]!.body).toContain('Too many open sessions from this address (MAX_SESSIONS_PER_CLIENT)');
    expect(refused[0]!.headers['retry-after']).toBe('1');
    expect((await open({ from: '127.0.0.4', token: 'newcomer' })).status).toBe(200);
    // Ending sessions frees their places.
    for (const answer of answers.filter((a) => a.status === 200).slice(0, 2)) {
      expect((await rawRequest(server.origin, '/mcp', { method: 'DELETE', headers: headersOf(flood, answer.session), localAddress: flood.from })).status).toBe(200);
    }
    expect((await open(flood)).status).toBe(200);
  });

  it('expires a session that made no request after initialize within SESSION_IDLE_UNUSED_MS, and keeps a used one', async () => {
    const caller: Caller = { from: '127.0.0.5', token: 't' };
    const unused = (await open(caller)).session;
    // The initialized notification alone is not a use.
    await post(caller, unused, { jsonrpc: '2.0', method: 'notifications/initialized' });
    const used = (await open(caller)).session;
    expect((await listTools(caller, used)).status).toBe(200);
    // Unused for 1.5 s, swept at most 1 s later.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await listTools(caller, unused)).status).toBe(404);
    expect((await listTools(caller, used)).status).toBe(200);
  });
});
