import { join } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { connectToolset, type ToolsetClient } from '@toolsets/testing';
import { Ajv } from 'ajv';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { EverythingToolset } from '../src';

// The reference server from npm (@modelcontextprotocol/server-everything) over stdio, as the demo
// runs it; the generated command is relative to the workspace root, the tests run in this folder.
process.env['EVERYTHING_MCP_COMMAND'] = `node ${join(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js')} stdio`;

/** One call per served tool, with arguments the reference server accepts (nothing that needs the network). */
const CALLS: Record<string, Record<string, unknown>> = {
  echo: { message: 'hello upstream' },
  'get-annotated-message': { messageType: 'success', includeImage: true },
  'get-env': {},
  'get-resource-links': { count: 2 },
  'get-resource-reference': { resourceType: 'Text', resourceId: 1 },
  'get-structured-content': { location: 'Chicago' },
  'get-sum': { a: 2, b: 40 },
  'get-tiny-image': {},
  'gzip-file-as-resource': { name: 'hello.txt.gz', data: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`, outputType: 'resource' },
  'toggle-simulated-logging': {},
  'toggle-subscriber-updates': {},
  'trigger-long-running-operation': { duration: 0.2, steps: 2 },
};

describe('the everything toolset generated from mcp.json, calling the reference server over stdio', () => {
  afterAll(() => closeUpstreams());

  it('lists its tools, each with an object-rooted output schema', async () => {
    const toolset = await connectToolset(EverythingToolset);
    const tools = await toolset.listTools();
    await toolset.close();
    // Every tool the calls below make, and the upstream's task tool (everything.tasks.spec.ts).
    expect(tools.map((tool) => tool.name).sort()).toEqual([...Object.keys(CALLS), 'simulate-research-query'].sort());
    for (const tool of tools) expect(tool.outputSchema).toMatchObject({ type: 'object' });
  });

  describe.each(['modern', 'legacy'] as const)('through a %s client', (era) => {
    let toolset: ToolsetClient;
    let tools: Tool[];
    const ajv = new Ajv({ strict: false });
    beforeAll(async () => {
      toolset = await connectToolset(EverythingToolset, { era });
      tools = await toolset.listTools();
    });
    afterAll(() => toolset?.close());

    it.each(Object.keys(CALLS))('calls %s and gets a result that fits what toolsets advertises', async (name) => {
      const result = (await toolset.call(name, CALLS[name])) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const schema = tools.find((tool) => tool.name === name)!.outputSchema!;
      const valid = ajv.validate(schema, result.structuredContent);
      expect(valid ? 'fits' : ajv.errorsText()).toBe('fits');
      expect(typeof (result.structuredContent as { message: unknown }).message).toBe('string');
    });
  });

  it('passes the upstream\'s answers on as the server gave them', async () => {
    const toolset = await connectToolset(EverythingToolset);
    const sum = await toolset.call('get-sum', { a: 2, b: 40 });
    const weather = await toolset.call('get-structured-content', { location: 'Chicago' });
    const image = await toolset.call('get-tiny-image', {});
    await toolset.close();
    expect((sum.structuredContent as { message: string }).message).toContain('42');
    expect((weather.structuredContent as { data: Record<string, unknown> }).data).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    expect((image.content as { type: string }[]).some((block) => block.type === 'image')).toBe(true);
  });

  it.each(['modern', 'legacy'] as const)("serves the upstream's prompts, resources and templates, read from it (%s client)", async (era) => {
    const { client, close } = await connectToolset(EverythingToolset, { era });
    try {
      const prompts = (await client.listPrompts()).prompts;
      expect(prompts.map((prompt) => prompt.name)).toEqual(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']);
      expect(prompts.find((prompt) => prompt.name === 'args-prompt')?.arguments).toEqual([
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ]);
      const asked = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo' } });
      expect(JSON.stringify(asked.messages)).toContain('Oslo');
      // A missing required argument is refused before the upstream is asked.
      await expect(client.getPrompt({ name: 'args-prompt', arguments: {} })).rejects.toThrow(/city/);

      const resources = (await client.listResources()).resources;
      expect(resources).toContainEqual(expect.objectContaining({ uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md', mimeType: 'text/markdown' }));
      const [document] = (await client.readResource({ uri: 'demo://resource/static/document/architecture.md' })).contents as { text?: string; mimeType?: string }[];
      expect(document?.mimeType).toBe('text/markdown');
      expect(document?.text?.length).toBeGreaterThan(100);
      // A template the upstream names with spaces is served under a name clients accept, its own kept as the title.
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      expect(templates).toContainEqual(expect.objectContaining({ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic_Text_Resource', title: 'Dynamic Text Resource' }));
      const [text] = (await client.readResource({ uri: 'demo://resource/dynamic/text/7' })).contents as { uri: string; text?: string }[];
      expect(text).toMatchObject({ uri: 'demo://resource/dynamic/text/7', text: expect.stringContaining('7') });
      const [blob] = (await client.readResource({ uri: 'demo://resource/dynamic/blob/3' })).contents as { blob?: string }[];
      expect(Buffer.from(blob?.blob ?? '', 'base64').length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it("passes a caller's resource subscription to the upstream, and the upstream's updates back, until the caller unsubscribes (2025 session)", async () => {
    const { client, close } = await connectToolset(EverythingToolset, { era: 'legacy' });
    const legacy = client as unknown as LegacyClient;
    const uri = 'demo://resource/static/document/architecture.md';
    const updates: string[] = [];
    let heard: () => void = () => undefined;
    legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
      heard();
    });
    try {
      // Answered once the app has subscribed upstream: the reference server's first update then reaches this caller.
      await legacy.subscribeResource({ uri });
      const first = new Promise<void>((resolve) => (heard = resolve));
      // The reference server sends every subscribed URI an update at once, then every 5 s, while this is on.
      await legacy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      await first;
      expect(updates[0]).toBe(uri);
      await legacy.unsubscribeResource({ uri });
      // An update the upstream sent before the unsubscribe (its 5 s timer) has arrived by the time a later call's answer has.
      await legacy.callTool({ name: 'get-sum', arguments: { a: 1, b: 1 } });
      const after = updates.length;
      // Turned off and on again: nothing more reaches this caller (that the app unsubscribed upstream too is
      // checked against the upstream's own log in libs/mcp-upstream/test/upstream-subscriptions.spec.ts).
      await legacy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      await legacy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      await legacy.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
      expect(updates.length).toBe(after);
    } finally {
      await close();
    }
  });

  it.each(['modern', 'legacy'] as const)("completes the upstream's prompt and template arguments by asking it, with the arguments filled in so far (%s client)", async (era) => {
    const { client, close } = await connectToolset(EverythingToolset, { era });
    try {
      const prompt = (argument: string, value: string, filled?: Record<string, string>) =>
        client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: argument, value }, ...(filled && { context: { arguments: filled } }) });
      // The reference server's own completers: departments by prefix, then the members of the department chosen.
      expect((await prompt('department', 'S')).completion.values.sort()).toEqual(['Sales', 'Support']);
      expect((await prompt('name', '', { department: 'Sales' })).completion.values).toEqual(['David', 'Eve', 'Frank']);
      expect((await prompt('name', 'E', { department: 'Engineering' })).completion.values).toEqual([]);
      expect((await prompt('name', 'A', { department: 'Engineering' })).completion.values).toEqual(['Alice']);
      // A template's variable: what the upstream answers for its resource ids.
      const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, argument: { name: 'resourceId', value: '1' } });
      expect(ids.completion.values.length).toBeGreaterThan(0);
      expect(ids.completion.values.every((id) => id.startsWith('1'))).toBe(true);
      // An argument the upstream has no completer for: no values, not an error.
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'args-prompt' }, argument: { name: 'city', value: 'O' } })).completion.values).toEqual([]);
    } finally {
      await close();
    }
  });
});
