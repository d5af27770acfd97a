import 'reflect-metadata';
import { join } from 'node:path';
import { buildServer, type ClassType } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { connectToolset, startServerProcess, type ServerProcess } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import { readUpstream, type UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

// A 2026-07-28 upstream: this repository's own hello app over stdio (built before these tests: the
// plugin's project depends on it), which answers server/discover. The generator records the era and
// the discovery, and the generated library connects with them as a prior: no probe, no initialize.
const helloApp = join(__dirname, '../../../../apps/hello-server/dist/main.js');
const source = { command: process.execPath, args: [helloApp, '--stdio'] };
const quiet = { info: () => undefined, warn: () => undefined, error: (message: string, fields?: unknown) => console.error(message, fields) };

describe('a toolset generated from a 2026-07-28 server (the hello app over stdio)', () => {
  let snapshot: UpstreamSnapshot;
  let served: ClassType;
  let files: Record<string, string>;

  beforeAll(async () => {
    snapshot = await readUpstream({ source });
    const generated = generateMcpToolset('upstream-hello', snapshot, { name: 'upstream-hello', source, prefix: 'up' });
    files = generated.files;
    served = (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
  });
  afterAll(() => closeUpstreams());

  it('records the modern era and its server/discover answer, which the library reuses as its prior', () => {
    expect([snapshot.era, snapshot.protocolVersion, snapshot.server.name]).toEqual(['modern', '2026-07-28', 'hello']);
    expect(snapshot.discover).toBeDefined();
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['hello', 'greet_team', 'hello_card']);
    expect(files['src/generated/upstream-hello.toolset.ts']).toContain("const PRIOR: PriorDiscovery = { kind: 'modern', discover: {");
  });

  it.each(['modern', 'legacy'] as const)("serves the upstream's tools, typed from their output schemas, to a %s client", async (era) => {
    const client = await connectToolset(buildServer({ name: 'app', version: '1', toolsets: [served], logger: quiet }), { era });
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['up_hello', 'up_greet_team', 'up_hello_card']);
      const hello = await client.call('up_hello', { name: 'Ada' });
      expect(hello.structuredContent).toEqual({ message: 'The upstream tool hello answered.', data: { message: 'Hello, Ada!' } });
      const team = await client.call('up_greet_team', { names: ['Ada', 'Grace'] });
      expect(team.isError).toBeFalsy();
      expect((team.structuredContent as { data: unknown }).data).toMatchObject({ greetings: [{ name: 'Ada' }, { name: 'Grace' }] });
      // The upstream's image comes along as a content block beside the typed result.
      const card = await client.call('up_hello_card', { name: 'Ada' });
      expect((card.content as { type: string }[]).map((block) => block.type)).toEqual(['text', 'image']);
      // A ToolError the upstream answers (an isError result) is the caller's ToolError, with the upstream's words.
      const twice = await client.call('up_greet_team', { names: ['Ada', 'ada'] });
      expect(twice.isError).toBe(true);
      expect(twice.structuredContent).toMatchObject({ error: 'upstream_error', detail: expect.stringContaining('These names appear more than once: ada') });
    } finally {
      await client.close();
    }
  });
});

// A 2026-07-28 upstream that asks the user mid-call (an input_required answer): the conformance app's
// round-trip tools over stdio. The question goes to the caller as a question of toolsets' own call
// (an input_required round for a 2026-07-28 caller, an elicitation request on a 2025-era session),
// and the caller's answer goes back upstream.
const conformanceApp = join(__dirname, '../../../../apps/conformance/dist/main.js');
const asking = { command: process.execPath, args: [conformanceApp, '--stdio'] };

describe('a toolset generated from a 2026-07-28 server that asks questions mid-call (the conformance app over stdio)', () => {
  let served: ClassType[];

  beforeAll(async () => {
    const snapshot = await readUpstream({ source: asking });
    const generated = generateMcpToolset('asking', snapshot, { name: 'asking', source: asking, prefix: 'up' });
    // The app's three toolsets are three groups upstream: three toolsets here, one connection.
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    served = generated.classNames.map((name) => exported[name]!);
  });
  afterAll(() => closeUpstreams());

  const app = () => buildServer({ name: 'app', version: '1', toolsets: served, logger: quiet });

  it.each(['modern', 'legacy'] as const)("passes the upstream's question to a %s caller and the caller's answer back upstream", async (era) => {
    const asked: unknown[] = [];
    const client = await connectToolset(app(), {
      era,
      onElicit: (params) => {
        asked.push(params);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    try {
      const result = await client.call('up_test_input_required_result_elicitation', {});
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ data: { message: 'Hello, Ada!' } });
      // The upstream's own form, as it asked: toolsets passes it on, and the upstream checks the answer.
      expect(asked).toEqual([expect.objectContaining({ message: 'What is your name?', requestedSchema: expect.objectContaining({ properties: expect.objectContaining({ name: expect.anything() }) }) })]);
    } finally {
      await client.close();
    }
  });

  it.each(['modern', 'legacy'] as const)("passes the upstream's questions to the user, the client's model and its roots to a %s caller at once", async (era) => {
    const sampled: unknown[] = [];
    const client = await connectToolset(app(), {
      era,
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
      onSample: (params) => {
        sampled.push(params.messages);
        return { role: 'assistant', content: { type: 'text', text: 'Good morning!' }, model: 'test-model', stopReason: 'endTurn' };
      },
      roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b', name: 'b' }],
    });
    try {
      const result = await client.call('up_test_input_required_result_multiple_inputs', {});
      expect(result.structuredContent).toMatchObject({ data: { message: 'Name: Ada; Greeting: Good morning!; Roots: 2' } });
      expect(sampled).toEqual([[{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }]]);
    } finally {
      await client.close();
    }
  });

  it.each(['modern', 'legacy'] as const)("passes the question an upstream's prompt asks to a %s caller, and the prompt it then gives back", async (era) => {
    const client = await connectToolset(app(), { era, onElicit: () => ({ action: 'accept', content: { context: 'a rainy day' } }) });
    try {
      const names = (await client.client.listPrompts()).prompts.map((prompt) => prompt.name);
      const name = names.find((candidate) => candidate.endsWith('test_input_required_result_prompt'));
      expect(name).toBeDefined();
      const prompt = await client.client.getPrompt({ name: name! });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Prompt with context: a rainy day' } }]);
    } finally {
      await client.close();
    }
  });

  it("passes a declined answer upstream, which goes on without one", async () => {
    const client = await connectToolset(app(), { onElicit: () => ({ action: 'decline' }) });
    try {
      expect((await client.call('up_test_input_required_result_elicitation', {})).structuredContent).toMatchObject({ data: { message: 'Hello, stranger!' } });
    } finally {
      await client.close();
    }
  });

  it('tells a caller that cannot answer (no elicitation declared) why the upstream refused, as an error result', async () => {
    const client = await connectToolset(app());
    try {
      const result = await client.call('up_test_input_required_result_elicitation', {});
      expect(result.isError).toBe(true);
      // The caller's capabilities are what the upstream is told this call's client can answer.
      expect(result.structuredContent).toEqual({
        error: 'upstream_refused',
        detail: 'The upstream MCP server of asking refused test_input_required_result_elicitation (-32021): Missing required client capabilities: elicitation',
      });
    } finally {
      await client.close();
    }
  });
});

// The same app over streamable HTTP: a tool whose argument gateways route by (`x-mcp-header`, mirrored
// into an `Mcp-Param-*` header by 2026-07-28 clients, and refused by the server when they disagree).
describe('a toolset generated from a 2026-07-28 server over HTTP whose tool mirrors an argument into a header', () => {
  let upstream: ServerProcess;
  let served: ClassType;

  beforeAll(async () => {
    upstream = await startServerProcess(conformanceApp);
    const source = { url: `${upstream.origin}/mcp` };
    const snapshot = await readUpstream({ source });
    const generated = generateMcpToolset('regions', snapshot, { name: 'regions', source, prefix: 'up', include: ['find_in_region'] });
    expect(generated.files['src/generated/dtos.ts']).toContain("header: 'Region'");
    // One tool served: its group upstream holds everything served, so the library is one toolset.
    expect(generated.classNames).toEqual(['RegionsToolset']);
    served = (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
  });
  afterAll(async () => {
    await closeUpstreams();
    await upstream?.stop();
  });

  it.each(['modern', 'legacy'] as const)('advertises the header the upstream declares and calls the upstream with it (%s caller)', async (era) => {
    const client = await connectToolset(buildServer({ name: 'app', version: '1', toolsets: [served], logger: quiet }), { era });
    try {
      const [tool] = await client.listTools();
      expect((tool!.inputSchema.properties as Record<string, Record<string, unknown>>)['region']!['x-mcp-header']).toBe('Region');
      const result = await client.call('up_find_in_region', { region: 'eu-west', query: 'cafes' });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain('eu-west');
    } finally {
      await client.close();
    }
  });
});
