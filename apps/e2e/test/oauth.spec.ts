import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { httpClient, stdioClient, type Era } from './support/clients';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';

/** The notes app as its own process, checking tokens from a loopback issuer, against the SDK's own clients. */
describe('the notes app with AUTH_ISSUER', () => {
  let issuer: TestIssuer;
  let notes: ServerProcess;
  let url: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    issuer.registerClient({ clientId: 'writer', clientSecret: 'w-secret', scopes: ['notes:read', 'notes:write'], subject: 'writer-1' });
    issuer.registerClient({ clientId: 'reader', clientSecret: 'r-secret', scopes: ['notes:read'], subject: 'reader-1' });
    notes = await startServerProcess(appMain('notes-server'), { AUTH_ISSUER: issuer.issuer });
    url = `${notes.origin}/mcp`;
    issuer.audience = url;
  });
  afterAll(async () => {
    await notes?.stop();
    await issuer?.close();
  });

  const connect = async (clientId: string, clientSecret: string, scope: string) => {
    const client = new Client({ name: clientId, version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({ clientId, clientSecret, scope, expectedIssuer: issuer.issuer });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    return client;
  };

  it('runs the SDK client through 401, metadata and a client-credentials token, then serves its own notes', async () => {
    const writer = await connect('writer', 'w-secret', 'notes:read notes:write');
    expect((await writer.listTools()).tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'add_note', 'delete_note']);
    expect((await writer.callTool({ name: 'add_note', arguments: { text: 'from the writer' } })).structuredContent).toMatchObject({ note: { id: 1, text: 'from the writer' } });
    const reader = await connect('reader', 'r-secret', 'notes:read');
    expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note']);
    expect((await reader.callTool({ name: 'list_notes', arguments: {} })).structuredContent).toMatchObject({ notes: [], total: 0 });
    await writer.close();
    await reader.close();
  });

  it.each<Era>(['modern', 'legacy'])('answers a %s-era call past its scopes with 403 insufficient_scope', async (era) => {
    const token = await issuer.mint({ subject: `reader-${era}`, scopes: ['notes:read'] });
    const client = await httpClient(era, url, { authorization: `Bearer ${token}` });
    await expect(client.callTool({ name: 'add_note', arguments: { text: 'nope' } })).rejects.toThrow(/403|insufficient[ _]scope/i);
    await client.close();
  });

  it('writes why it refused a token to its log, never the token', async () => {
    const expired = await issuer.mint({ expiresIn: -10, scopes: ['notes:read'] });
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${expired}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    await notes.stderrLines((line) => line.includes('ERR_JWT_EXPIRED'));
    for (const part of expired.split('.')) expect(notes.stderr()).not.toContain(part);
  });

  it('checks nothing over stdio, where the process owner is the user', async () => {
    const client = await stdioClient('modern', [appMain('notes-server'), '--stdio'], { AUTH_ISSUER: issuer.issuer });
    expect((await client.callTool({ name: 'add_note', arguments: { text: 'local' } }))['structuredContent']).toMatchObject({ note: { text: 'local' } });
    await client.close();
  });
});

describe('the demo app with AUTH_MOUNTS=notes', () => {
  let issuer: TestIssuer;
  let demo: ServerProcess;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    demo = await startServerProcess(appMain('demo-server'), { AUTH_ISSUER: issuer.issuer, AUTH_MOUNTS: 'notes' });
  });
  afterAll(async () => {
    await demo?.stop();
    await issuer?.close();
  });

  it('checks tokens on /notes/mcp only, and serves its metadata there', async () => {
    const hello = await httpClient('modern', `${demo.origin}/hello/mcp`);
    expect((await hello.listTools()).tools.length).toBeGreaterThan(0);
    await hello.close();
    const refused = await fetch(`${demo.origin}/notes/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${demo.origin}/.well-known/oauth-protected-resource/notes/mcp"`);
    const metadata = await (await fetch(`${demo.origin}/.well-known/oauth-protected-resource/notes/mcp`)).json();
    expect(metadata).toEqual({ resource: `${demo.origin}/notes/mcp`, authorization_servers: [issuer.issuer], scopes_supported: ['notes:read', 'notes:write'], bearer_methods_supported: ['header'], resource_name: 'notes' });
  });
});
