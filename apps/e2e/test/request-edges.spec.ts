import { resolve } from 'node:path';
import { accountOf, httpClient, textOf } from './support/clients';
import { MCP_HEADERS, rawExchange, rawRequest, toolsCall } from './support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';

const LEGACY = { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' };

describe('requests a careless or hostile client sends (credential-demo app)', () => {
  let server: ServerProcess;
  let port: string;

  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'));
    port = new URL(server.origin).port;
  });
  afterAll(async () => {
    await server.stop();
  });

  const exchange = (requestLine: string, headers: string[], body = '') =>
    rawExchange(server.origin, `${requestLine}\r\n${[...headers, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`);
  const mcpHeaders = ['Content-Type: application/json', 'Accept: application/json, text/event-stream', 'MCP-Protocol-Version: 2025-06-18'];

  it('answers TRACE and other non-MCP methods on the endpoint with 405 and Allow', async () => {
    for (const method of ['TRACE', 'PUT', 'PATCH']) {
      const response = await rawRequest(server.origin, '/mcp', { method, headers: MCP_HEADERS });
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, POST, DELETE');
    }
  });

  it('serves an absolute-form request target (valid HTTP/1.1) like the origin-form one', async () => {
    const response = await exchange(`POST http://127.0.0.1:${port}/mcp HTTP/1.1`, ['Host: 127.0.0.1', 'X-Demo-Token: abs', ...mcpHeaders], toolsCall('whoami'));
    expect(response.status).toBe(200);
    expect(response.text).toContain(accountOf('abs'));
  });

  it('refuses an absolute-form target that names a foreign host', async () => {
    const response = await exchange('POST http://attacker.example/mcp HTTP/1.1', ['Host: 127.0.0.1', ...mcpHeaders], toolsCall('whoami'));
    expect(response.status).toBe(403);
  });

  it.each(['evil.example@localhost', 'localhost/evil', 'localhost#x', 'localhost?x', 'local host', 'localhost:99999'])(
    'answers a malformed Host header %j with 400',
    async (host) => {
      const response = await exchange('POST /mcp HTTP/1.1', [`Host: ${host}`, ...mcpHeaders], toolsCall('whoami'));
      expect(response.status).toBe(400);
      expect(response.text).toContain('malformed Host header');
    },
  );

  it('answers two Host headers with 400', async () => {
    const response = await exchange('POST /mcp HTTP/1.1', ['Host: localhost', 'Host: attacker.example', ...mcpHeaders], toolsCall('whoami'));
    expect(response.status).toBe(400);
  });

  it.each(['http://localhost/evil', 'http://user@localhost', 'null', 'localhost'])('refuses a malformed or foreign Origin %j with 403', async (origin) => {
    const response = await rawRequest(server.origin, '/mcp', { headers: { ...LEGACY, origin }, body: toolsCall('whoami') });
    expect(response.status).toBe(403);
  });

  it('answers an unknown path with 404 whatever the method, without echoing a long path', async () => {
    expect((await rawRequest(server.origin, '/nope', { method: 'POST', headers: MCP_HEADERS, body: '{}' })).status).toBe(404);
    const long = await rawRequest(server.origin, `/${'a'.repeat(15_000)}`, { method: 'GET' });
    expect(long.status).toBe(404);
    expect(long.body.length).toBeLessThan(400);
    expect(long.body).toContain('(15001 characters)');
  });

  it('refuses a request that repeats the credential header instead of merging the values', async () => {
    const response = await exchange('POST /mcp HTTP/1.1', ['Host: 127.0.0.1', 'X-Demo-Token: alice', 'X-Demo-Token: bob', ...mcpHeaders], toolsCall('whoami'));
    expect(response.status).toBe(400);
    expect(response.text).toContain('The x-demo-token header was sent 2 times; send it once');
    expect(response.text).not.toContain(accountOf('alice, bob'));
  });

  it('refuses a __proto__ key in the arguments (and anywhere in the message)', async () => {
    for (const body of [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{"__proto__":{"admin":true}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{"\\u005f_proto__":{"admin":true}}}}',
    ]) {
      const response = await rawRequest(server.origin, '/mcp', { headers: { ...LEGACY, 'x-demo-token': 't' }, body });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: "Invalid Request: '__proto__' is never accepted as a key, in arguments or anywhere else." },
      });
    }
  });

  it.each(['constructor', 'prototype'])('refuses an undeclared %s argument as isError', async (key) => {
    const client = await httpClient('legacy', `${server.origin}/mcp`, { 'x-demo-token': 't' });
    const result = await client.callTool({ name: 'whoami', arguments: { [key]: { admin: true } } });
    await client.close();
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toContain(`'${key}' is not an argument of this tool`);
  });

  it('answers a 2025-era initialize with bad params in one readable line', async () => {
    const response = await rawRequest(server.origin, '/mcp', {
      headers: MCP_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: 5, capabilities: 'x' } }),
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32602,
        message:
          'Invalid params for initialize: params.protocolVersion: expected string, received number; params.capabilities: expected object, received string; params.clientInfo: expected object, received undefined.',
      },
    });
  });

  it('keeps log lines and replies small when a client sends megabyte names and garbage headers', async () => {
    const before = server.stderr().length;
    const hugeName = 'x'.repeat(1_000_000);
    for (let i = 0; i < 50; i++) {
      const reply = await rawRequest(server.origin, '/mcp', { headers: { ...LEGACY, 'mcp-name': 'whoami', 'mcp-method': 'tools/call' }, body: toolsCall(hugeName) });
      expect(reply.body.length).toBeLessThan(2_000);
      const garbage = await rawRequest(server.origin, '/mcp', { headers: { ...MCP_HEADERS, 'mcp-protocol-version': 'g'.repeat(8_192) }, body: toolsCall('whoami') });
      expect(garbage.status).toBe(400);
      expect(garbage.body.length).toBeLessThan(400);
    }
    expect(server.stderr().length - before).toBeLessThan(50_000);
  });

  it('refuses a body far beyond the argument limits before parsing it (deep nesting, huge arrays)', async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}}}`;
    const nested = await rawRequest(server.origin, '/mcp', { headers: { ...LEGACY, 'x-demo-token': 't' }, body: deep });
    expect(nested.status).toBe(400);
    expect(nested.body).toContain('nests far deeper than this server accepts in arguments (MAX_ARGUMENT_DEPTH)');
    const wide = await rawRequest(server.origin, '/mcp', { headers: { ...LEGACY, 'x-demo-token': 't' }, body: toolsCall('whoami', { a: Array(100_000).fill(0) }) });
    expect(wide.status).toBe(400);
    expect(wide.body).toContain('far more array items than this server accepts in arguments (MAX_ARGUMENT_ITEMS)');
  });

  it('refuses arguments over the size guard as isError, naming the limit, without stalling', async () => {
    const client = await httpClient('modern', `${server.origin}/mcp`, { 'x-demo-token': 't' });
    const result = await client.callTool({ name: 'whoami', arguments: { list: Array.from({ length: 20_000 }, (_, i) => i) } });
    await client.close();
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toContain('more than 10000 array items in all');
  });
});

describe('Host names the server answers to', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('serves the URL it prints when bound to another loopback address (127.0.0.2)', async () => {
    server = await startServerProcess(appMain('hello-server'), { HOST: '127.0.0.2' });
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    const client = await httpClient('modern', `${server.origin}/mcp`);
    expect((await client.callTool({ name: 'hello', arguments: {} }))['structuredContent']).toEqual({ message: 'Hello, world!' });
    await client.close();
  });

  it('honours ALLOWED_HOSTS on loopback too, and still refuses other names', async () => {
    server = await startServerProcess(appMain('hello-server'), { ALLOWED_HOSTS: 'mcp.internal' });
    const allowed = await rawRequest(server.origin, '/health', { method: 'GET', headers: { host: 'mcp.internal:443' } });
    expect(allowed.status).toBe(200);
    const other = await rawRequest(server.origin, '/health', { method: 'GET', headers: { host: 'other.example' } });
    expect(other.status).toBe(403);
  });

  it('refuses to start with an ALLOWED_HOSTS entry that is not a host name', async () => {
    await expect(startServerProcess(appMain('hello-server'), { ALLOWED_HOSTS: 'https://mcp.internal/' })).rejects.toThrow(
      'ALLOWED_HOSTS entry "https://mcp.internal/" is not a host name',
    );
  });
});

describe('CORS', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });
  const preflight = (origin: string) =>
    rawRequest(server!.origin, '/mcp', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-demo-token' },
    });

  it('is off by default: a preflight gets 405 and no allow headers', async () => {
    server = await startServerProcess(appMain('credential-demo-server'));
    const response = await preflight('http://localhost:6274');
    expect(response.status).toBe(405);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('with CORS_ORIGINS, answers the preflight and lets that origin call, credential header included', async () => {
    server = await startServerProcess(appMain('credential-demo-server'), { CORS_ORIGINS: 'http://localhost:6274' });
    const response = await preflight('http://localhost:6274');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect(response.headers['access-control-allow-headers']).toContain('x-demo-token');
    const call = await rawRequest(server.origin, '/mcp', {
      headers: { ...LEGACY, origin: 'http://localhost:6274', 'x-demo-token': 'web' },
      body: toolsCall('whoami'),
    });
    expect(call.status).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBe('http://localhost:6274');
    expect((await preflight('http://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a tool that throws with the caller key in its message (weather fixture)', () => {
  it('sends the client a correlation id only, and logs the message with the key redacted', async () => {
    const server = await startServerProcess(resolve(__dirname, '../fixtures/weather-server.cjs'));
    const key = 'sk-live-4f2a9c';
    const client = await httpClient('legacy', `${server.origin}/mcp`, { 'x-weather-key': key });
    const result = await client.callTool({ name: 'forecast', arguments: {} });
    await client.close();
    expect(await server.stop()).toBe(0);
    expect(result['isError']).toBe(true);
    const correlationId = /correlation id ([0-9a-f-]{36})/.exec(textOf(result))?.[1];
    expect(correlationId).toBeDefined();
    expect(JSON.stringify(result)).not.toContain(key);
    const line = server.stderr().split('\n').find((l) => l.includes(correlationId!));
    expect(line).toContain('upstream 401 for https://api.example.com/v1/forecast?apikey=[redacted x-weather-key]');
    expect(server.stderr()).not.toContain(key);
  });
});
