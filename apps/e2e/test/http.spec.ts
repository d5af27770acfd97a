import { accountOf, httpClient, textOf, type AnyClient, type Era } from './support/clients';
import { MCP_HEADERS, rawRequest } from './support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';



describe('the credential-demo app over streamable HTTP', () => {
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'), { MAX_BODY_BYTES: '4096' });
    url = `${server.origin}/mcp`;
  });
  afterAll(() => server.stop());

  describe.each<Era>(['modern', 'legacy'])('with the %s-era client', (era) => {
    let client: AnyClient;
    const token = `token-for-${era}`;

    beforeAll(async () => {
      client = await httpClient(era, url, { 'x-demo-token': token });
    });
    afterAll(() => client.close());

    it("lists whoami with the seed contract's output schema", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['whoami']);
      expect(tools[0].outputSchema).toEqual({
        type: 'object',
        title: 'WhoamiResult',
        description: 'The resolved account id, also stated in the message.',
        properties: { message: expect.objectContaining({ type: 'string' }), account: { type: 'string' } },
        required: ['message'],
      });
      expect(tools[0].inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    });

    it('answers whoami with the account of the token in the header', async () => {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const account = accountOf(token);
      expect(result['isError']).toBeFalsy();
      expect(result['structuredContent']).toEqual({ message: `The caller's credential belongs to account ${account}.`, account });
      expect(JSON.parse(textOf(result))).toEqual(result['structuredContent']);
    });

    it('refuses the token passed as an argument', async () => {
      const result = await client.callTool({ name: 'whoami', arguments: { 'x-demo-token': 'arg-secret' } });
      expect(result['isError']).toBe(true);
      expect(textOf(result)).toContain("'x-demo-token' is not an argument of this tool");
      expect(JSON.stringify(result)).not.toContain('arg-secret');
    });

    it('tells a caller without the header how to configure it', async () => {
      const bare = await httpClient(era, url);
      const result = await bare.callTool({ name: 'whoami', arguments: {} });
      expect(result['isError']).toBe(true);
      expect(textOf(result)).toContain('send the `x-demo-token` header');
      await bare.close();
    });
  });

  it('reports health with its tools and credential headers', async () => {
    const response = await fetch(`${server.origin}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', tools: ['whoami'], credentialHeaders: ['x-demo-token'] });
  });

  it('refuses a foreign Host header (DNS rebinding) and a foreign Origin', async () => {
    const host = await rawRequest(server.origin, '/mcp', { headers: { ...MCP_HEADERS, host: 'attacker.example' }, body: '{}' });
    expect(host.status).toBe(403);
    expect(host.body).toContain('Invalid Host');
    const origin = await rawRequest(server.origin, '/mcp', { headers: { ...MCP_HEADERS, origin: 'http://attacker.example' }, body: '{}' });
    expect(origin.status).toBe(403);
    expect(origin.body).toContain('Invalid Origin');
  });

  it('answers malformed JSON with JSON-RPC -32700 and an oversized body with 413, without stack traces', async () => {
    const malformed = await rawRequest(server.origin, '/mcp', { headers: MCP_HEADERS, body: '{"jsonrpc": "2.0", "id": 1,' });
    expect(JSON.parse(malformed.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    const oversized = await rawRequest(server.origin, '/mcp', { headers: MCP_HEADERS, body: JSON.stringify({ pad: 'x'.repeat(10_000) }) });
    expect(oversized.status).toBe(413);
    for (const body of [malformed.body, oversized.body]) expect(body).not.toMatch(/\n\s+at |\.js:\d+/);
  });

  it('answers unknown paths with 404 and says where the endpoint is', async () => {
    const response = await fetch(`${server.origin}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Nothing at /nope. MCP endpoints: /mcp.' });
  });

  it('never writes a token to its logs, whether sent as a header or as an argument', async () => {
    const before = server.stderr().length;
    for (const era of ['modern', 'legacy'] as const) {
      const client = await httpClient(era, url, { 'x-demo-token': `logged-token-${era}` });
      await client.callTool({ name: 'whoami', arguments: {} });
      await client.callTool({ name: 'whoami', arguments: { 'x-demo-token': `arg-secret-${era}` } });
      await client.close();
    }
    const written = server.stderr().slice(before);
    expect(written).toContain('"tokenPresent":true');
    for (const secret of ['logged-token-modern', 'logged-token-legacy', 'arg-secret-modern', 'arg-secret-legacy']) expect(written).not.toContain(secret);
  });
});

describe('the hello app over streamable HTTP', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess(appMain('hello-server'));
  });
  afterAll(() => server.stop());

  it.each<Era>(['modern', 'legacy'])('greets through the %s-era client', async (era) => {
    const client = await httpClient(era, `${server.origin}/mcp`);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['hello', 'greet_team', 'hello_card']);
    expect((await client.callTool({ name: 'hello', arguments: {} }))['structuredContent']).toEqual({ message: 'Hello, world!' });
    expect((await client.callTool({ name: 'hello', arguments: { name: 'Ada' } }))['structuredContent']).toEqual({ message: 'Hello, Ada!' });
    const team = await client.callTool({ name: 'greet_team', arguments: { names: ['Ada', 'Ada'] } });
    expect(team['isError']).toBe(true);
    expect(team['structuredContent']).toMatchObject({ error: 'duplicate_names' });
    await client.close();
  });
});
