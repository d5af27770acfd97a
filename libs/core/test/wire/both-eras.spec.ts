import 'reflect-metadata';
import { buildServer } from '../../src';
import { CatalogToolset, catalogWith } from '../support/catalog-toolset';
import { connectClient, connectLegacyClient, connectLegacyClientToFactory, recordingLogger } from '../support/connect';

interface AnyClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const eras: [string, typeof connectClient | typeof connectLegacyClient][] = [
  ['SDK v2 Client (2026-07-28)', connectClient],
  ['SDK v1 Client (2025 era, Ajv-validating)', connectLegacyClient],
];

describe.each(eras)('over InMemoryTransport with the %s', (_era, connect) => {
  let client: AnyClient;
  let log: ReturnType<typeof recordingLogger>;

  // Each test has its own server, client and log; tools are listed first, as real clients do (the
  // v1 client validates structuredContent only against schemas it has listed).
  const connectTo = async (toolset: typeof CatalogToolset) => {
    log = recordingLogger();
    client = (await connect(buildServer({ name: 'eras', version: '1', toolsets: [toolset], logger: log.logger }))) as unknown as AnyClient;
    await client.listTools();
  };
  beforeEach(() => connectTo(CatalogToolset));
  afterEach(() => client.close());

  const textOf = (result: Record<string, unknown>) => (result['content'] as { text: string }[]).map((c) => c.text).join('\n');

  it('lists every tool with a closed input schema and an open output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['find', 'raw', 'explode', 'tag']);
    const find = tools.find((t) => t.name === 'find')!;
    expect(find.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, required: ['query'] });
    expect(find.outputSchema).toMatchObject({ type: 'object', title: 'FindResult', anyOf: [{ title: 'FindResult' }, { title: 'ToolError' }] });
    expect(JSON.stringify(find.outputSchema)).not.toContain('additionalProperties');
  });

  it('returns structuredContent and the text block on success', async () => {
    const result = await client.callTool({ name: 'find', arguments: { query: 'cap', limit: 1 } });
    expect(result['isError']).toBeFalsy();
    expect(result['structuredContent']).toEqual({ message: 'Found 1 items.', items: [{ sku: 'cap-0' }] });
    expect(JSON.parse(textOf(result))).toEqual(result['structuredContent']);
  });

  it('sends a returned ToolError as isError with { error, detail }, valid under the advertised union', async () => {
    const result = await client.callTool({ name: 'find', arguments: { query: 'missing' } });
    expect(result['isError']).toBe(true);
    expect(result['structuredContent']).toEqual({ error: 'not_found', detail: 'Nothing matches "missing"; try a shorter query.' });
  });

  it('turns a thrown exception into a generic isError with a correlation id; the message goes to the log only', async () => {
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result['isError']).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^The tool 'explode' failed unexpectedly\. The server log has the details under correlation id [0-9a-f-]{36}\./);
    expect(text).not.toContain('Upstream inventory');
    expect(result['structuredContent']).toBeUndefined();
    const correlationId = /correlation id ([0-9a-f-]{36})/.exec(text)![1];
    expect(log.lines).toContainEqual({
      level: 'error',
      message: 'tool threw',
      fields: expect.objectContaining({ correlationId, tool: 'explode', error: 'Error', detail: 'Upstream inventory service is unavailable.' }),
    });
  });

  it('names each bad argument and why, so a model can correct itself', async () => {
    const result = await client.callTool({ name: 'find', arguments: { limit: 9, token: 'secret-value' } });
    expect(result['isError']).toBe(true);
    const text = textOf(result);
    expect(text).toContain("Invalid arguments for tool 'find'");
    expect(text).toContain("'query' is required.");
    expect(text).toContain("'limit' must be <= 5.");
    expect(text).toContain("'token' is not an argument of this tool (it takes: query, limit, since).");
    expect(text).not.toContain('secret-value');
  });

  it('checks class-validator rules that have no JSON Schema form at call time', async () => {
    const bad = await client.callTool({ name: 'tag', arguments: { tag: 'plain' } });
    expect(bad['isError']).toBe(true);
    expect(textOf(bad)).toContain("'tag': tag must contain a # string.");
    const good = await client.callTool({ name: 'tag', arguments: { tag: '#ok' } });
    expect(good['structuredContent']).toEqual({ message: 'Tagged #ok.', received: '#ok' });
  });

  it('never sends a non-conforming result: a generic error with a correlation id, details in the server log', async () => {
    await client.close();
    await connectTo(catalogWith({ rawReturn: { message: 42, items: 'not-a-list', password: 'hunter2' } }));
    const result = await client.callTool({ name: 'raw', arguments: {} });
    expect(result['isError']).toBe(true);
    expect(result['structuredContent']).toBeUndefined();
    const text = textOf(result);
    const correlationId = /correlation id ([0-9a-f-]{36})/.exec(text)?.[1];
    expect(correlationId).toBeDefined();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('not-a-list');
    const logged = log.lines.find((line) => line.fields?.['correlationId'] === correlationId);
    expect(logged).toMatchObject({ level: 'error', fields: { tool: 'raw', arm: 'FindResult' } });
    expect(JSON.stringify(logged?.fields?.['errors'])).toContain('/message');
  });

  it('answers an unknown tool name with JSON-RPC error -32602', async () => {
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('the v1 client used above', () => {
  it('does validate structuredContent against the listed schema (negative control)', async () => {
    const server = buildServer({ name: 'eras', version: '1', toolsets: [CatalogToolset], logger: recordingLogger().logger });
    const client = await connectLegacyClientToFactory((context) => {
      const sdkServer = server.serverFactory({})(context);
      sdkServer.setRequestHandler('tools/call', () => ({ content: [], structuredContent: { message: 42 } }));
      return sdkServer;
    });
    await client.listTools();
    await expect(client.callTool({ name: 'find', arguments: { query: 'x' } })).rejects.toThrow('Structured content does not match the tool');
    await client.close();
  });
});
