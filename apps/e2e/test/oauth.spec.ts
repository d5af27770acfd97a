import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort, startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { httpClient, stdioClient, type Era } from './support/clients';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

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

/** docs/authorization.md's five-minute path: the local issuer command, then notes-server against it. */
describe('trying authorization locally: toolsets-issuer and notes-server', () => {
  let issuerProcess: ChildProcess | undefined;
  let notes: ServerProcess | undefined;
  afterAll(async () => {
    await notes?.stop();
    if (issuerProcess && issuerProcess.exitCode === null) await new Promise((exited) => issuerProcess!.once('exit', exited).kill('SIGINT'));
  });

  it('prints a server command, a client and ready tokens that give a 403 for a write with notes:read and a 200 with notes:write', async () => {
    const [issuerPort, notesPort] = [await freePort(), await freePort()];
    const url = `http://127.0.0.1:${notesPort}/mcp`;
    issuerProcess = spawn(process.execPath, [join(workspaceRoot, 'libs/testing/dist/bin/toolsets-issuer.js'), '--port', String(issuerPort), '--server-port', String(notesPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    issuerProcess.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await new Promise<void>((ready, failed) => {
      const timer = setTimeout(() => failed(new Error(`the issuer printed only:\n${printed}`)), 20_000);
      issuerProcess!.stdout!.on('data', () => printed.includes('Ctrl-C stops it.') && (clearTimeout(timer), ready()));
    });
    const origin = `http://127.0.0.1:${issuerPort}`;
    // The exact command: the server on the port the tokens are for.
    expect(printed).toContain(`Start the server against it:   PORT=${notesPort} AUTH_ISSUER=${origin} node apps/notes-server/dist/main.js`);
    expect(printed).toContain(`Tokens for ${url}, valid for an hour`);
    expect(printed).toContain(`client_id=local-client client_secret=local-secret scopes="notes:read notes:write" (token endpoint ${origin}/token)`);
    const readOnly = /\n {2}notes:read:\n {4}(\S+)/.exec(printed)![1]!;
    const readWrite = /\n {2}notes:read notes:write:\n {4}(\S+)/.exec(printed)![1]!;

    notes = await startServerProcess(appMain('notes-server'), { AUTH_ISSUER: origin, PORT: String(notesPort) });
    const add = (token: string) =>
      fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'tried locally' } } }),
      });
    const refused = await add(readOnly);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    const added = await add(readWrite);
    expect(added.status).toBe(200);
    expect(await added.text()).toContain('tried locally');

    // The call line it printed works as printed: toolsets-call runs the SDK's client-credentials flow from the environment.
    const callLine = /Call with them: +(.+) npm run call -- (\S+) --list/.exec(printed)!;
    const env = Object.fromEntries(callLine[1]!.split(' ').map((pair) => pair.split('=') as [string, string]));
    expect(Object.keys(env)).toEqual(['TOOLSETS_CALL_CLIENT_ID', 'TOOLSETS_CALL_CLIENT_SECRET', 'TOOLSETS_CALL_ISSUER']);
    // Run asynchronously: a synchronous spawn would block this process while the server closes its idle keep-alive connections, and the next request would meet a closed socket.
    const call = (...args: string[]) => (extra: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [join(workspaceRoot, 'libs/testing/dist/bin/toolsets-call.js'), ...args], { encoding: 'utf-8', env: { ...process.env, ...env, ...extra } }, (error, stdout, stderr) =>
          resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const listed = await call(callLine[2]!, '--list')({});
    expect([listed.status, listed.stdout.split('\n').map((line) => line.split('\t')[0]).filter(Boolean)]).toEqual([0, ['list_notes', 'get_note', 'add_note', 'delete_note']]);
    const wrongIssuer = await call(url, '--list')({ TOOLSETS_CALL_ISSUER: 'http://127.0.0.1:1' });
    expect(wrongIssuer.status).toBe(1);
    expect(wrongIssuer.stderr).toContain('Authorization server mismatch');
    expect(wrongIssuer.stderr).not.toContain('local-secret');

    // The client it printed runs the SDK's own client-credentials flow too.
    const client = new Client({ name: 'local', version: '1.0.0' });
    const authProvider = new ClientCredentialsProvider({ clientId: 'local-client', clientSecret: 'local-secret', scope: 'notes:read notes:write', expectedIssuer: origin });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
    expect((await client.callTool({ name: 'list_notes', arguments: {} })).structuredContent).toMatchObject({ notes: [{ text: 'tried locally' }], total: 1 });
    await client.close();

    // Exactly the scopes asked for: a write with notes:read shows the server's 403 and the scope it names.
    const exact = await call(url, 'add_note', '{"text":"exact"}', '--exact-scopes')({ TOOLSETS_CALL_SCOPES: 'notes:read' });
    expect(exact.status).toBe(1);
    expect(exact.stderr).toMatch(/The server refused the call: 403 insufficient_scope, it needs [^,]*notes:write[^,]*, and the token has notes:read\./);
    expect(exact.stderr).not.toContain('local-secret');
    // Without it, the SDK's client asks the issuer for the scope the server named and calls again.
    const stepped = await call(url, 'add_note', '{"text":"stepped up"}')({ TOOLSETS_CALL_SCOPES: 'notes:read' });
    expect([stepped.status, stepped.stdout]).toEqual([0, expect.stringContaining('stepped up')]);
  });
});

