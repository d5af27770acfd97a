import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildServer, formatCatalogSizes, serveHttp, type HttpServerHandle, type Logger, type ServerDefinition } from '@toolsets/core';
import { freshIssues, tracker, TrackerToolset } from '../support/shop-toolsets';

// The built library: the sandbox runs programs on its built worker script.
const { codeMode } = require('../../dist') as typeof import('../../src');

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
type Structured = Record<string, unknown>;

jest.setTimeout(60_000);

describe('code mode served over HTTP: search, describe and execute on the caller’s own view, both protocol eras', () => {
  let definition: ServerDefinition;
  let http: HttpServerHandle;
  let url: string;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown>, on: Pick<Client, 'callTool'> = client) => {
    const result = await on.callTool({ name, arguments: args });
    return { isError: result.isError === true, content: result.structuredContent as Structured, text: (result.content as { text?: string }[])[0]?.text ?? '' };
  };
  const execute = (program: string, on?: Pick<Client, 'callTool'>) => call('execute', { program }, on);

  beforeAll(async () => {
    definition = buildServer({ name: 'shop', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet, codeMode: codeMode({ workers: 2 }) });
    http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet });
    url = http.mounts[0]!.url;
    client = new Client({ name: 'code-mode', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}?mode=code`)));
  });
  beforeEach(() => {
    tracker.issues = freshIssues();
    tracker.calls = 0;
  });
  afterAll(async () => {
    await client.close();
    await http.close();
    await definition.codeMode!.close();
  });

  it('lists only search, describe and execute, each with an output schema, in under 2 KB', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search', 'describe', 'execute']);
    for (const tool of tools) expect(tool.outputSchema).toBeDefined();
    expect(JSON.stringify({ tools }).length).toBeLessThan(2_048);
    expect(tools[0]!.description).toContain("this server's 6 tools in 1 group");
  });

  it("tells the operator its code-mode list's size beside the whole list's and discovery mode's, as a client gets it", async () => {
    const { tools } = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify({ tools }));
    expect(http.mounts[0]!.codeList).toEqual({ bytes, estimatedTokens: Math.round(bytes / 4) });
    expect(formatCatalogSizes(definition.views.sizes)[0]).toMatch(new RegExp(`; in discovery mode [\\d,]+ bytes \\(~[\\d,]+ tokens\\); in code mode ${bytes.toLocaleString('en')} bytes \\(`));
    // A server without code mode says nothing of it.
    const plain = buildServer({ name: 'plain', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet });
    expect(plain.views.sizes.code).toBeUndefined();
    expect(formatCatalogSizes(plain.views.sizes)[0]).not.toContain('code mode');
  });

  it('refuses arguments its advertised schemas do not allow, naming the argument and what it takes, before anything runs', async () => {
    const refused = async (name: string, args: Record<string, unknown>) => {
      const answer = await call(name, args);
      expect(answer.isError).toBe(true);
      expect(answer.content['error']).toBe('invalid_request');
      return String(answer.content['detail']);
    };
    expect(await refused('execute', {})).toMatch(/'program'/);
    expect(await refused('execute', { program: '   ' })).toMatch(/'program'/);
    expect(await refused('execute', { program: 'return 1;', code: 'return 2;' })).toMatch(/'code'.*not an argument/);
    expect(await refused('describe', { names: [] })).toMatch(/'names'.*1/);
    expect(await refused('describe', { names: Array.from({ length: 51 }, (_, i) => `t${i}`) })).toMatch(/'names'.*50/);
    expect(await refused('describe', { names: ['tracker.get_issue', ''] })).toMatch(/'names\.1'/);
    expect(await refused('search', { query: 'labels', limit: 26 })).toMatch(/'limit'.*25/);
    expect(await refused('search', { query: 'x'.repeat(501) })).toMatch(/'query'.*500/);
    expect(await refused('search', { query: 'labels', program: 'return catalog;' })).toBe('Send either query (plain words) or program (code over catalog), not both and not neither.');
    expect(await refused('search', {})).toBe('Send either query (plain words) or program (code over catalog), not both and not neither.');
    expect(tracker.calls).toBe(0);
  });

  it('describes tools as TypeScript, leaving out a task tool with the reason (a tool that asks the user is declared)', async () => {
    const described = await call('describe', { names: ['tracker.get_issue', 'export_issues', 'close_issue', 'nope'] });
    expect(described.isError).toBe(false);
    expect(described.content['declarations']).toContain('function get_issue(args: GetIssueArgs): Promise<GetIssueResult>;');
    expect(described.content['declarations']).toContain('function close_issue(args: CloseIssueArgs): Promise<CloseIssueResult>;');
    expect(described.content['declarations']).not.toContain('list_issues');
    expect(described.content['message']).toMatch(/'export_issues' is left out: it runs as an MCP task .*tools\/call/);
    expect(described.content['unknown']).toEqual(['export_issues', 'nope']);
  });

  it('runs a multi-step program: its value, logs and call count, each inner call through the tool itself', async () => {
    const done = await execute(`
const { issues } = await api.tracker.list_issues({ state: 'open' });
const unlabelled = issues.filter((issue) => issue.labels.length === 0);
for (const issue of unlabelled) await api.tracker.add_label({ number: issue.number, label: 'triage' });
const missing = await api.tracker.get_issue({ number: 99 });
console.log('labelled', unlabelled.length);
return { labelled: unlabelled.map((issue) => issue.number), missing: 'error' in missing ? missing.error : 'found' };`);
    expect(done.isError).toBe(false);
    expect(done.content).toEqual({ message: 'The program ran, making 4 call(s).', value: { labelled: [3, 1], missing: 'not_found' }, logs: ['labelled 2'], calls: 4 });
    expect(JSON.parse(done.text)).toEqual(done.content);
    expect(tracker.issues.find((issue) => issue.number === 3)!.labels).toEqual(['triage']);
    expect(tracker.calls).toBe(4);
  });

  it('answers a type error with line, column and the compiler’s words, and runs nothing', async () => {
    const failed = await execute("const a = await api.tracker.list_issues({ state: 'open' });\nawait api.tracker.add_label({ number: '3', label: 'x' });");
    expect(failed.isError).toBe(true);
    expect(failed.content).toMatchObject({ error: 'type_error', problems: [{ line: 2, code: 'TS2322', message: expect.stringContaining("'string' is not assignable to type 'number'") }] });
    expect(failed.content['detail']).toMatch(/^The program does not type-check; nothing ran\. Line 2, column \d+:/);
    expect(tracker.calls).toBe(0);
  });

  it('lets a program catch what the server refuses (invalid arguments, a question for the client) and branch on a rate limit, a ToolError the tool declares', async () => {
    const done = await execute(`
const seen: string[] = [];
const attempt = async (run: () => Promise<object>) => {
  try {
    const result = await run();
    seen.push('error' in result ? String(result.error) + ': ' + String((result as unknown as { detail: string }).detail).slice(0, 60) : 'ran');
  } catch (error) {
    seen.push(error instanceof ToolCallError ? error.name + ': ' + error.message.slice(0, 60) : 'other');
  }
};
await attempt(() => api.tracker.list_issues({ state: 'open', limit: 500 }));
for (let i = 0; i < 4; i++) await attempt(() => api.tracker.add_label({ number: 1, label: 'x' + i }));
await attempt(() => api.tracker.summarise({ number: 1 }));
return seen;`);
    expect(done.content['detail']).toBeUndefined();
    const seen = done.content['value'] as string[];
    expect(seen[0]).toMatch(/^ToolCallError: Invalid arguments for tool 'list_issues'/);
    // At most 3 labels per caller (the multi-step test above may have taken some): the 4th is refused, as a value the program branches on.
    for (const outcome of seen.slice(1, 4)) expect(outcome).toMatch(/^(ran|rate_limited: )/);
    expect(seen[4]).toMatch(/^rate_limited: Too many calls to 'add_label'/);
    expect(seen[5]).toMatch(/^sampling_unavailable: This tool needs the client's model/);
  });

  it('ends a program that throws with the error’s name and message, its logs and calls so far', async () => {
    const failed = await execute("console.log('before');\nawait api.tracker.list_issues({ state: 'open' });\nthrow new RangeError('no good');");
    expect(failed).toMatchObject({ isError: true, content: { error: 'thrown', detail: 'The program threw RangeError: no good', logs: ['before'], calls: 1 } });
  });

  it('runs inner calls at once under Promise.all, and stops a program past its call limit', async () => {
    const all = await execute('const numbers = [1, 2, 3, 1, 2, 3, 1, 2];\nconst found = await Promise.all(numbers.map((number) => api.tracker.get_issue({ number })));\nreturn found.length;');
    expect(all.content).toMatchObject({ value: 8, calls: 8 });
    const many = await execute("for (let i = 0; i < 60; i++) await api.tracker.get_issue({ number: 1 });\nreturn 'done';");
    expect(many).toMatchObject({ isError: true, content: { error: 'limit', detail: expect.stringMatching(/CODE_MODE_MAX_CALLS/) } });
  });

  it('searches by words and by a program over the catalog, bounded in bytes', async () => {
    const byWords = await call('search', { query: 'label an issue' });
    const [hit] = byWords.content['tools'] as { call?: string }[];
    // A hit a program calls is named once, by its call path, which describe takes as it is.
    expect(hit).toEqual({ call: 'api.tracker.add_label', summary: expect.any(String), required: ['number', 'label'] });
    expect((await call('describe', { names: [hit!.call!] })).content['declarations']).toContain('function add_label(');
    const byProgram = await call('search', { program: "return catalog.filter((tool) => tool.required.includes('number')).map((tool) => tool.call ?? tool.name + ' (direct)');" });
    expect(byProgram.content['value']).toEqual(['api.tracker.get_issue', 'api.tracker.add_label', 'api.tracker.summarise', 'api.tracker.close_issue']);
    const huge = await call('search', { program: "return catalog.map(() => 'x'.repeat(4000));" });
    expect(huge).toMatchObject({ isError: true, content: { error: 'limit', detail: expect.stringMatching(/resultBytes/) } });
  });

  it('serves only the caller’s selection: with ?readonly=1 a write tool is neither declared nor callable', async () => {
    const reader = new Client({ name: 'reader', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await reader.connect(new StreamableHTTPClientTransport(new URL(`${url}?mode=code&readonly=1`)));
    try {
      const described = await call('describe', { names: ['tracker'] }, reader);
      expect(described.content['declarations']).toContain('function get_issue(');
      expect(described.content['declarations']).not.toContain('add_label');
      const refused = await execute("await api.tracker.add_label({ number: 1, label: 'x' });", reader);
      expect(refused.content).toMatchObject({ error: 'type_error', problems: [{ message: expect.stringContaining("Property 'add_label' does not exist") }] });
    } finally {
      await reader.close();
    }
  });

  it('answers a 2025-11-25 client the same way', async () => {
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(new LegacyHttpTransport(new URL(`${url}?mode=code`)));
    try {
      expect(legacy.getServerVersion()).toBeDefined();
      expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(['search', 'describe', 'execute']);
      const done = await execute("const { issue } = await api.tracker.get_issue({ number: 2 }) as { issue: { title: string } };\nreturn issue.title;", legacy as unknown as Pick<Client, 'callTool'>);
      expect(done.content).toMatchObject({ value: 'Typo in README', calls: 1 });
    } finally {
      await legacy.close();
    }
  });

  it('refuses mode=code on a server without code mode, saying how to turn it on', async () => {
    const plain = buildServer({ name: 'plain', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet });
    const served = await serveHttp(plain, { port: 0, drainDelayMs: 0, logger: quiet });
    try {
      const response = await fetch(`${served.mounts[0]!.url}?mode=code`, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(await response.text()).toContain("buildServer({ codeMode: codeMode() }) from '@toolsets/code-mode'");
    } finally {
      await served.close();
    }
    expect(() => buildServer({ name: 'plain', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet, mode: 'code' })).toThrow(/codeMode: codeMode\(\) from '@toolsets\/code-mode'/);
  });
});
