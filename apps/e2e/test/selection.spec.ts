import { spawnSync } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020';
import { z } from 'zod';
import { accountOf, httpClient, stdioClient, textOf, type AnyClient, type Era } from './support/clients';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

/** The demo app's combined server (hello + credential-demo) over stdio, with selection flags. */
const stdioDemo = (era: Era, flags: string[], env: Record<string, string> = {}): Promise<AnyClient> =>
  stdioClient(era, [appMain('demo-server'), '--stdio', '--server=demo', ...flags], env);

/** groups/list's result (SEP-2084), for either era's client; zod schemas are Standard Schemas too. */
const GROUPS_RESULT = z.object({ groups: z.array(z.object({ name: z.string(), description: z.string() }).passthrough()) }).passthrough();

const names = async (client: AnyClient) => (await client.listTools()).tools.map((tool) => tool.name);
type Entry = { name: string; toolset: string; outputSchema: object };
type Hit = { name: string; summary: string; toolset: string; required: string[] };

/** search_tools → browse_tools → describe_tools → call_tool, as a model runs them; the result must match what describe_tools gave. */
async function discoverAndCall(client: AnyClient, token: string): Promise<void> {
  const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'which account does my credential belong to' } }))['structuredContent'] as { tools: Hit[] };
  expect(found.tools[0]).toMatchObject({ name: 'whoami', summary: expect.any(String), toolset: 'credential-demo', annotations: expect.any(Object), required: [] });
  // Compact: nothing but what choosing needs; the schemas come from describe_tools.
  for (const hit of found.tools) expect(['name', 'title', 'summary', 'toolset', 'annotations', 'required']).toEqual(expect.arrayContaining(Object.keys(hit)));
  const browsed = (await client.callTool({ name: 'browse_tools', arguments: { toolset: 'credential-demo' } }))['structuredContent'] as { tools: Hit[] };
  expect(browsed.tools.map((hit) => hit.name)).toEqual(['whoami']);
  const described = (await client.callTool({ name: 'describe_tools', arguments: { names: ['whoami'] } }))['structuredContent'] as { tools: Entry[] };
  expect(described.tools[0]).toMatchObject({ name: 'whoami', toolset: 'credential-demo', inputSchema: expect.any(Object) });
  const result = await client.callTool({ name: 'call_tool', arguments: { name: 'whoami', arguments: {} } });
  const account = accountOf(token);
  expect(result['structuredContent']).toEqual({ message: `The caller's credential belongs to account ${account}.`, account });
  expect(new Ajv2020({ strict: false }).compile(described.tools[0].outputSchema)(result['structuredContent'])).toBe(true);
}

describe('the demo app serving both toolsets at /demo/mcp', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(appMain('demo-server'));
  });
  afterAll(() => server.stop());

  describe.each<Era>(['modern', 'legacy'])('over HTTP with the %s-era client', (era) => {
    it('narrows the tools to ?toolsets= or X-MCP-Toolsets, and refuses a call outside them', async () => {
      const byQuery = await httpClient(era, `${server.origin}/demo/mcp?toolsets=credential-demo`);
      expect(await names(byQuery)).toEqual(['whoami']);
      await expect(byQuery.callTool({ name: 'hello', arguments: {} })).rejects.toThrow(/Unknown tool 'hello'.*outside this request's selection/s);
      await byQuery.close();
      const byHeader = await httpClient(era, `${server.origin}/demo/mcp`, { 'X-MCP-Toolsets': 'hello' });
      expect(await names(byHeader)).toEqual(['hello', 'greet_team', 'hello_card']);
      await byHeader.close();
    });

    it('searches compactly, browses, describes and calls in discovery mode, with the caller credential and a typed result', async () => {
      const token = `selection-${era}`;
      const client = await httpClient(era, `${server.origin}/demo/mcp?mode=discovery`, { 'x-demo-token': token });
      expect(await names(client)).toEqual(['search_tools', 'browse_tools', 'describe_tools', 'call_tool']);
      const groups = (await client.callTool({ name: 'browse_tools', arguments: {} }))['structuredContent'] as { groups: { name: string; tools: number }[] };
      expect(groups.groups.map((group) => [group.name, group.tools])).toEqual([
        ['hello', 3],
        ['credential-demo', 1],
      ]);
      await discoverAndCall(client, token);
      const invalid = await client.callTool({ name: 'call_tool', arguments: { name: 'greet_team', arguments: { names: 'ann' } } });
      expect(invalid['isError']).toBe(true);
      expect(textOf(invalid)).toMatch(/Invalid arguments for tool 'greet_team'.*'names'/s);
      await client.close();
    });
  });

  it('answers 400 listing the toolsets when a selected one does not exist', async () => {
    const response = await fetch(`${server.origin}/demo/mcp?toolsets=hello,billing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "No toolset named 'billing' on this server. Available toolsets: hello, credential-demo.",
    );
  });

  it('lists each group with its tool count and list size in the JSON index', async () => {
    const index = (await (await fetch(`${server.origin}/`)).json()) as { servers: { name: string; toolsets: { name: string; tools: number; bytes: number }[]; list: { bytes: number } }[] };
    const demo = index.servers.find((s) => s.name === 'demo')!;
    // Measured independently: the bytes of the tools/list a client gets for each selection.
    const listBytes = async (query: string) => {
      const response = await fetch(`${server.origin}/demo/mcp${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      const data = (await response.text()).split('\n').find((line) => line.startsWith('data: '))!.slice('data: '.length);
      return Buffer.byteLength(JSON.stringify({ tools: (JSON.parse(data) as { result: { tools: unknown[] } }).result.tools }));
    };
    expect(demo.toolsets.map((group) => [group.name, group.tools])).toEqual([['hello', 3], ['credential-demo', 1]]);
    expect(demo.toolsets[0].bytes).toBe(await listBytes('?toolsets=hello'));
    expect(demo.list.bytes).toBe(await listBytes(''));
  });
});

describe.each<Era>(['modern', 'legacy'])('the demo app over stdio with the %s-era client', (era) => {
  it('serves only --toolsets=', async () => {
    const client = await stdioDemo(era, ['--toolsets=hello']);
    expect(await names(client)).toEqual(['hello', 'greet_team', 'hello_card']);
    await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow(/Unknown tool 'whoami'/);
    await client.close();
  });

  it('lists its groups with groups/list (the grouping extension), as --toolsets= selects them, and names each tool’s group', async () => {
    const groupsOf = async (client: AnyClient) => {
      const raw = client as unknown as { request(request: object, schema: unknown): Promise<{ groups: { name: string; description: string }[] }> };
      return (await raw.request({ method: 'groups/list', params: {} }, GROUPS_RESULT)).groups;
    };
    const all = await stdioDemo(era, []);
    expect((await groupsOf(all)).map((group) => group.name)).toEqual(['hello', 'credential-demo']);
    const listed = (await all.listTools()).tools as { name: string; _meta?: Record<string, unknown> }[];
    expect(listed.find((tool) => tool.name === 'whoami')?._meta?.['io.modelcontextprotocol/groups']).toEqual(['credential-demo']);
    await all.close();
    const selected = await stdioDemo(era, ['--toolsets=credential-demo']);
    expect(await groupsOf(selected)).toEqual([{ name: 'credential-demo', description: expect.stringMatching(/ 1 tool\.$/) }]);
    await selected.close();
  });

  it('serves discovery mode with --discovery, narrowed by MCP_TOOLSETS and read-only by --readonly', async () => {
    const token = `stdio-${era}`;
    const client = await stdioDemo(era, ['--discovery', '--readonly'], { MCP_TOOLSETS: 'credential-demo', X_DEMO_TOKEN: token });
    expect(await names(client)).toEqual(['search_tools', 'browse_tools', 'describe_tools', 'call_tool']);
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'greet someone' } }))['structuredContent'] as { tools: Entry[] };
    expect(found.tools.every((tool) => tool.toolset === 'credential-demo')).toBe(true);
    const refused = await client.callTool({ name: 'call_tool', arguments: { name: 'hello', arguments: {} } });
    expect(refused['isError']).toBe(true);
    await discoverAndCall(client, token);
    await client.close();
  });
});

describe('the demo app over stdio with a selection it cannot serve', () => {
  it('does not start, and names the toolsets it has', () => {
    const run = spawnSync(process.execPath, [appMain('demo-server'), '--stdio', '--server=demo'], {
      cwd: workspaceRoot,
      env: { PATH: process.env['PATH'] ?? '', MCP_TOOLSETS: 'billing' },
      input: '',
      encoding: 'utf-8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Not starting: No toolset named 'billing' on this server. Available toolsets: hello, credential-demo.");
  });
});
