import { accountOf, httpClient, textOf, type Era } from './support/clients';
import { MCP_HEADERS, rawRequest } from './support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });

describe('the credential-demo app with 2025-era sessions on (MCP_SESSIONS=on)', () => {
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'), { MCP_SESSIONS: 'on' });
    url = `${server.origin}/mcp`;
  });
  afterAll(() => server.stop());

  it.each<Era>(['modern', 'legacy'])('answers each %s-era caller with its own account, every call reading that request’s header', async (era) => {
    const clients = await Promise.all(['alpha', 'beta'].map((token) => httpClient(era, url, { 'x-demo-token': `${era}-${token}` })));
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(clients.map((client) => client.callTool({ name: 'whoami', arguments: {} })));
      expect(results.map((result) => (result['structuredContent'] as { account: string }).account)).toEqual([accountOf(`${era}-alpha`), accountOf(`${era}-beta`)]);
    }
    await Promise.all(clients.map((client) => client.close()));
  });

  it('opens a session on initialize, finds it by mcp-session-id, and ends it on DELETE', async () => {
    const opened = await rawRequest(server.origin, '/mcp', { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(opened.status).toBe(200);
    const session = opened.headers['mcp-session-id'] as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await rawRequest(server.origin, '/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const listed = await rawRequest(server.origin, '/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(listed.body).toContain('"whoami"');
    expect((await rawRequest(server.origin, '/mcp', { method: 'DELETE', headers })).status).toBe(200);
    const gone = await rawRequest(server.origin, '/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    expect(gone.status).toBe(404);
    expect(gone.body).toContain('Session not found: it expired or was closed. Send initialize (without mcp-session-id) to open a new one.');
  });

  it('refuses a 2025-era request without a session, saying to initialize first', async () => {
    const bare = await rawRequest(server.origin, '/mcp', { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(bare.status).toBe(400);
    expect(bare.body).toContain('no mcp-session-id header. This server keeps 2025-era sessions: send initialize first');
  });

  it('refuses to start with MCP_SESSIONS set to anything but on or off', async () => {
    await expect(startServerProcess(appMain('credential-demo-server'), { MCP_SESSIONS: 'maybe' })).rejects.toThrow('MCP_SESSIONS must be on or off, got "maybe".');
  });

  it('still tells a caller without the credential how to configure it, inside a session', async () => {
    const client = await httpClient('legacy', url);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toContain('send the `x-demo-token` header');
    await client.close();
  });
});
