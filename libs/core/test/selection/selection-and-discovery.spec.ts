import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer, serveHttp, Tool, Toolset, type ConnectionOptions, type HttpServerHandle, type ServerDefinition } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';
import { ClashToolset, ClockToolset, NotesToolset, NowResult } from './notes-catalog';

type Era = 'modern' | 'legacy';
interface AnyClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: object; outputSchema?: object; annotations?: object }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const { logger } = recordingLogger();
const definition = (): ServerDefinition => buildServer({ name: 'notes-app', version: '1.0.0', toolsets: [NotesToolset, ClockToolset], logger });
const text = (result: Record<string, unknown>) => (result['content'] as { text: string }[]).map((c) => c.text).join('\n');
const names = async (client: AnyClient) => (await client.listTools()).tools.map((tool) => tool.name);

/** Over HTTP: `?query` on the MCP URL and headers select; in memory (stdio's path): the connection's selection. */
type Connect = (era: Era, select: { query?: string; headers?: Record<string, string>; selection?: ConnectionOptions['selection'] }) => Promise<AnyClient>;

let http: HttpServerHandle;
let server: ServerDefinition;
beforeAll(async () => {
  server = definition();
  http = await serveHttp(server, { port: 0, logger });
});
afterAll(() => http.close());

const overHttp: Connect = async (era, { query = '', headers = {} }) => {
  const url = new URL(`${http.origin}/mcp${query}`);
  if (era === 'modern') {
    const client = new Client({ name: 'selection-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: 'selection-test-2025', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(url, { requestInit: { headers } }));
  return client as unknown as AnyClient;
};

const inMemory: Connect = async (era, { selection, headers }) => {
  const connection: ConnectionOptions = { ...(selection && { selection }), ...(headers && { headers }) };
  return (era === 'modern' ? await connectClient(server, connection) : await connectLegacyClient(server, connection)) as unknown as AnyClient;
};

describe.each<[string, Era, Connect]>([
  ['HTTP', 'modern', overHttp],
  ['HTTP', 'legacy', overHttp],
  ['a connection (stdio, in memory)', 'modern', inMemory],
  ['a connection (stdio, in memory)', 'legacy', inMemory],
])('selection over %s with the %s-era client', (over, era, connect) => {
  const select = (query: string, selection: ConnectionOptions['selection']) => connect(era, { query, selection });

  it('lists every tool when nothing is selected, in catalog order', async () => {
    const client = await connect(era, {});
    expect(await names(client)).toEqual(['list_notes', 'add_note', 'now']);
    await client.close();
  });

  it('narrows the list and the calls to the selected toolsets', async () => {
    const client = await select('?toolsets=clock', { toolsets: ['clock'], readonly: false, mode: 'tools' });
    expect(await names(client)).toEqual(['now']);
    expect((await client.callTool({ name: 'now' }))['structuredContent']).toEqual({ message: 'The time.', iso: '1970-01-01T00:00:00.000Z' });
    await expect(client.callTool({ name: 'list_notes', arguments: {} })).rejects.toThrow(/Unknown tool 'list_notes'\. It exists on this server but is outside this request's selection.*Available tools: now\./s);
    await client.close();
  });

  it('keeps only read-only tools in read-only mode, and refuses the others', async () => {
    const client = await select('?readonly=1', { readonly: true, mode: 'tools' });
    expect(await names(client)).toEqual(['list_notes', 'now']);
    await expect(client.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool 'add_note'/);
    await client.close();
  });

  describe('in discovery mode', () => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await select('?mode=discovery', { readonly: false, mode: 'discovery' });
    });
    afterAll(() => client.close());

    it('lists only search_tools, browse_tools, describe_tools and call_tool, in under 4 KB', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['search_tools', 'browse_tools', 'describe_tools', 'call_tool']);
      expect(JSON.stringify({ tools }).length).toBeLessThan(4096);
    });

    it('finds a tool by what it does, compactly: a summary, its hints and required arguments, no schemas', async () => {
      const result = await client.callTool({ name: 'search_tools', arguments: { query: 'write down a note', limit: 2 } });
      const found = (result['structuredContent'] as { tools: Record<string, unknown>[] }).tools;
      expect(found[0]).toEqual({ name: 'add_note', summary: 'Add a note with some text.', toolset: 'notes', annotations: { readOnlyHint: false, destructiveHint: false }, required: ['text'] });
      expect(found.length).toBeLessThanOrEqual(2);
      expect(JSON.parse(text(result).split('\n')[0])).toEqual(result['structuredContent']);
      const { tools } = await client.listTools();
      const validate = new Ajv2020({ strict: false }).compile(tools[0].outputSchema!);
      expect(validate(result['structuredContent'])).toBe(true);
    });

    it('inlines the schemas describe_tools gives when asked for detail "full"', async () => {
      const full = (await client.callTool({ name: 'search_tools', arguments: { query: 'add a note', limit: 1, detail: 'full' } }))['structuredContent'] as { tools: Record<string, unknown>[] };
      const described = (await client.callTool({ name: 'describe_tools', arguments: { names: ['add_note'] } }))['structuredContent'] as { tools: Record<string, unknown>[] };
      expect(full.tools[0]['inputSchema']).toEqual(described.tools[0]['inputSchema']);
      expect(full.tools[0]['outputSchema']).toEqual(described.tools[0]['outputSchema']);
    });

    it("browses the groups with their tool counts, then one group's tools compactly", async () => {
      const groups = (await client.callTool({ name: 'browse_tools', arguments: {} }))['structuredContent'];
      expect(groups).toMatchObject({
        groups: [
          { name: 'notes', description: 'Notes: write them down and read them back.', tools: 2 },
          { name: 'clock', description: 'The time of day.', tools: 1 },
        ],
      });
      const notes = (await client.callTool({ name: 'browse_tools', arguments: { toolset: 'notes' } }))['structuredContent'] as { tools: { name: string; summary: string }[]; nextCursor?: string };
      expect(notes.tools.map((tool) => [tool.name, tool.summary])).toEqual([
        ['list_notes', 'List the saved notes, newest first.'],
        ['add_note', 'Add a note with some text.'],
      ]);
      expect(notes.nextCursor).toBeUndefined();
      const unknown = await client.callTool({ name: 'browse_tools', arguments: { toolset: 'calendar' } });
      expect(unknown['isError']).toBe(true);
      expect(text(unknown)).toContain("no group 'calendar' here. Groups: notes, clock.");
    });

    it('describes tools exactly as a direct tools/list would, with their group', async () => {
      const direct = await connect(era, {});
      const listed = (await direct.listTools()).tools.find((tool) => tool.name === 'add_note')!;
      await direct.close();
      const described = (await client.callTool({ name: 'describe_tools', arguments: { names: ['add_note'] } }))['structuredContent'] as { tools: Record<string, unknown>[] };
      // The group (grouping extension's _meta) is the describe entry's own `toolset`.
      const { _meta, ...entry } = listed as typeof listed & { _meta?: Record<string, unknown> };
      expect(_meta).toEqual({ 'io.modelcontextprotocol/groups': ['notes'] });
      expect(described.tools[0]).toEqual({ ...entry, toolset: 'notes' });
    });

    it("runs a tool with call_tool: its structuredContent validates against the schema describe_tools gave", async () => {
      const described = (await client.callTool({ name: 'describe_tools', arguments: { names: ['add_note'] } }))['structuredContent'] as { tools: { outputSchema: object }[] };
      const validate = new Ajv2020({ strict: false }).compile(described.tools[0].outputSchema);
      const ok = await client.callTool({ name: 'call_tool', arguments: { name: 'add_note', arguments: { text: 'milk' } } });
      expect(ok['structuredContent']).toEqual({ message: 'Saved note 7: milk', id: 7 });
      expect(validate(ok['structuredContent'])).toBe(true);
      expect(text(ok)).toContain("tool 'add_note'");
      const failed = await client.callTool({ name: 'call_tool', arguments: { name: 'add_note', arguments: { text: 'fail' } } });
      expect(failed['isError']).toBe(true);
      expect(failed['structuredContent']).toEqual({ error: 'refused', detail: 'This note cannot be saved.' });
      expect(validate(failed['structuredContent'])).toBe(true);
    });

    it("names the field when call_tool's arguments do not fit the tool", async () => {
      const result = await client.callTool({ name: 'call_tool', arguments: { name: 'list_notes', arguments: { limit: 500 } } });
      expect(result['isError']).toBe(true);
      expect(text(result)).toContain("Invalid arguments for tool 'list_notes'");
      expect(text(result)).toMatch(/'limit'/);
    });

    it("names the field when a discovery tool's own arguments are wrong", async () => {
      const result = await client.callTool({ name: 'search_tools', arguments: { query: '' } });
      expect(result['isError']).toBe(true);
      expect(text(result)).toMatch(/Invalid arguments for tool 'search_tools'.*'query'/s);
      const badGroup = await client.callTool({ name: 'search_tools', arguments: { query: 'time', toolsets: ['calendar'] } });
      expect(text(badGroup)).toContain("no group 'calendar' here. Groups: notes, clock.");
    });

    it('says when a name given to describe_tools or call_tool is not a tool here', async () => {
      const describe = await client.callTool({ name: 'describe_tools', arguments: { names: ['send_email'] } });
      expect(describe['isError']).toBe(true);
      expect(text(describe)).toContain("No tool 'send_email' is available to this request");
      const call = await client.callTool({ name: 'call_tool', arguments: { name: 'send_email' } });
      expect(call['isError']).toBe(true);
    });
  });

  it('applies the selection and read-only mode inside discovery mode: a tool outside them is neither found nor callable', async () => {
    const client = await select('?mode=discovery&readonly=1&toolsets=notes', { toolsets: ['notes'], readonly: true, mode: 'discovery' });
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'note', limit: 10 } }))['structuredContent'] as { tools: { name: string }[] };
    expect(found.tools.map((tool) => tool.name)).toEqual(['list_notes']);
    const clock = (await client.callTool({ name: 'search_tools', arguments: { query: 'current time' } }))['structuredContent'] as { tools: unknown[] };
    expect(clock.tools).toEqual([]);
    const refused = await client.callTool({ name: 'call_tool', arguments: { name: 'add_note', arguments: { text: 'x' } } });
    expect(refused['isError']).toBe(true);
    expect(text(refused)).toContain("No tool 'add_note' is available to this request");
    await client.close();
  });
});

describe('selection over HTTP', () => {
  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${http.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('answers 400 naming the available toolsets when a selected one does not exist', async () => {
    const response = await post('/mcp?toolsets=notes,calendar');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe("No toolset named 'calendar' on this server. Available toolsets: notes, clock.");
    const header = await post('/mcp', { 'x-mcp-toolsets': 'nope' });
    expect(header.status).toBe(400);
  });

  it('answers 400 for a mode or read-only value it does not know', async () => {
    expect((await post('/mcp?mode=everything')).status).toBe(400);
    expect(((await (await post('/mcp?readonly=maybe')).json()) as { error: { message: string } }).error.message).toContain('read-only switch must be 1 or 0');
  });

  it('lets a header narrow what the URL selects, never widen it', async () => {
    const client = await overHttp('modern', { query: '?toolsets=notes,clock', headers: { 'x-mcp-toolsets': 'clock', 'x-mcp-readonly': '1' } });
    expect(await names(client)).toEqual(['now']);
    await client.close();
    const disjoint = await post('/mcp?toolsets=notes', { 'x-mcp-toolsets': 'clock' });
    expect(disjoint.status).toBe(400);
    expect(((await disjoint.json()) as { error: { message: string } }).error.message).toContain('have none in common: select toolsets both allow.');
  });

  it('answers the same selection with the same bytes, whatever order the toolsets are named in', async () => {
    const raw = async (query: string) => {
      const response = await post(`/mcp${query}`);
      expect(response.status).toBe(200);
      return (await response.text()).split('\n').find((line) => line.startsWith('data: '))!.slice('data: '.length);
    };
    const first = await raw('?toolsets=clock,notes');
    expect(await raw('?toolsets=notes,clock')).toBe(first);
    expect(await raw('?toolsets=notes,clock,notes')).toBe(first);
    expect(JSON.parse(first).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['list_notes', 'add_note', 'now']);
  });

  it('keeps a 2025-era session to the selection its initialize request made', async () => {
    const sessions = await serveHttp(definition(), { port: 0, logger, sessions: true, drainDelayMs: 0 });
    try {
      const client = new LegacyClient({ name: 'session', version: '1.0.0' });
      await client.connect(new LegacyHttpTransport(new URL(`${sessions.origin}/mcp?toolsets=clock`)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['now']);
      await expect(client.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool 'add_note'/);
      await client.close();
    } finally {
      await sessions.close();
    }
  });

  it('passes the caller\'s credential header to a tool run through call_tool', async () => {
    const client = await overHttp('legacy', { query: '?mode=discovery', headers: { 'x-notes-token': 'abcd' } });
    const result = await client.callTool({ name: 'call_tool', arguments: { name: 'add_note', arguments: { text: 'hi' } } });
    expect(result['structuredContent']).toEqual({ message: 'Saved note 7: hi', id: 7, by: 'caller-4' });
    await client.close();
  });
});

describe('buildServer options for large catalogs', () => {
  it('refuses a mode or a list budget it cannot use, naming the server and the fix', () => {
    const build = (extra: object) => () => buildServer({ name: 'opts', version: '1', toolsets: [ClockToolset], logger, ...extra });
    expect(build({ mode: 'search' })).toThrow(`buildServer 'opts': mode is "search". Fix: use 'tools' (every tool listed), 'discovery' (search_tools, browse_tools, describe_tools, call_tool) or 'code' (with codeMode).`);
    expect(build({ listBudgetTokens: 0 })).toThrow("buildServer 'opts': listBudgetTokens is 0. Fix: give a positive whole number of tokens");
    expect(build({ listBudgetTokens: 2.5 })).toThrow(/listBudgetTokens is 2\.5/);
  });

  it('serves its own search_tools in discovery mode even when a catalog tool has that name, which call_tool still reaches', async () => {
    const named = buildServer({ name: 'clash', version: '1', toolsets: [ClashToolset], logger });
    const client = await connectClient(named, { selection: { readonly: false, mode: 'discovery' } });
    const own = await client.callTool({ name: 'search_tools', arguments: { query: 'search' } });
    expect((own.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual(['search_tools']);
    const catalogs = await client.callTool({ name: 'call_tool', arguments: { name: 'search_tools', arguments: {} } });
    expect(catalogs.structuredContent).toEqual({ message: 'The catalog tool.', iso: 'x' });
    await client.close();
  });
});

describe('browsing a group larger than a page', () => {
  // 30 tools in one group, built the way the decorators would be written by hand 30 times.
  @Toolset({ name: 'many', description: 'Thirty tools.' })
  class ManyToolset {}
  for (let i = 0; i < 30; i++) {
    const method = `tool${i}`;
    Object.defineProperty(ManyToolset.prototype, method, { value: () => ({ message: `${i}`, iso: 'x' }) });
    Tool({ description: `Tool number ${i}. More words.`, returns: NowResult })(ManyToolset.prototype, method, Object.getOwnPropertyDescriptor(ManyToolset.prototype, method)!);
  }

  it('pages through it 25 at a time with nextCursor, and refuses a cursor it did not give', async () => {
    const many = buildServer({ name: 'many', version: '1', toolsets: [ManyToolset], logger });
    const client = await connectClient(many, { selection: { mode: 'discovery', readonly: false } });
    const page = async (args: Record<string, unknown>) => (await client.callTool({ name: 'browse_tools', arguments: { toolset: 'many', ...args } })) as Record<string, unknown>;
    const first = (await page({}))['structuredContent'] as { tools: { name: string; summary: string }[]; nextCursor: string; message: string };
    expect(first.tools).toHaveLength(25);
    expect(first.tools[0]).toEqual({ name: 'tool0', summary: 'Tool number 0.', toolset: 'many', required: [] });
    expect(first.message).toContain('Tools 1–25 of 30');
    const second = (await page({ cursor: first.nextCursor }))['structuredContent'] as { tools: { name: string }[]; nextCursor?: string };
    expect(second.tools.map((tool) => tool.name)).toEqual(['tool25', 'tool26', 'tool27', 'tool28', 'tool29']);
    expect(second.nextCursor).toBeUndefined();
    for (const cursor of ['30', '-1', 'abc', '1e3']) {
      const refused = await page({ cursor });
      expect(refused['isError']).toBe(true);
      expect(text(refused)).toContain("'cursor': not one this tool gave for 'many'");
    }
    await client.close();
  });
});

describe('a server whose default mode is discovery', () => {
  it('lists the discovery tools unless a request asks for ?mode=tools', async () => {
    const discovering = buildServer({ name: 'big', version: '1.0.0', toolsets: [NotesToolset, ClockToolset], logger, mode: 'discovery' });
    const handle = await serveHttp(discovering, { port: 0, logger, drainDelayMs: 0 });
    try {
      const url = (query: string) => new URL(`${handle.origin}/mcp${query}`);
      const client = new Client({ name: 't', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(url('')));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'browse_tools', 'describe_tools', 'call_tool']);
      await client.close();
      const tools = new Client({ name: 't', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await tools.connect(new StreamableHTTPClientTransport(url('?mode=tools')));
      expect((await tools.listTools()).tools.map((tool) => tool.name)).toEqual(['list_notes', 'add_note', 'now']);
      await tools.close();
    } finally {
      await handle.close();
    }
  });
});
