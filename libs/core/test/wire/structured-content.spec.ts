import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { buildServer } from '../../src';
import { CatalogToolset, catalogWith, FindArgs } from '../support/catalog-toolset';
import { connectClient, recordingLogger } from '../support/connect';

describe('structuredContent', () => {
  let client: Client;

  beforeAll(async () => {
    client = await connectClient(buildServer({ name: 'wire', version: '1', toolsets: [CatalogToolset], logger: recordingLogger().logger }));
  });
  afterAll(() => client.close());

  /** Calls `raw` on a server of its own whose tool returns exactly `value`. */
  async function callRaw(value: unknown) {
    const own = await connectClient(buildServer({ name: 'wire', version: '1', toolsets: [catalogWith({ rawReturn: value })], logger: recordingLogger().logger }));
    try {
      return await own.callTool({ name: 'raw', arguments: {} });
    } finally {
      await own.close();
    }
  }

  it('drops undeclared keys, at the top level and inside nested arrays', async () => {
    const result = await client.callTool({ name: 'find', arguments: { query: 'shoe' } });
    expect(result.structuredContent).toEqual({
      message: 'Found 2 items.',
      items: [{ sku: 'shoe-0' }, { sku: 'shoe-1' }],
    });
    expect(result.isError).toBeFalsy();
  });

  it('omits absent optional keys instead of padding them with null', async () => {
    const result = await callRaw({ message: 'm', items: [{ sku: 'a', note: undefined }], nextCursor: undefined });
    expect(result.structuredContent).toEqual({ message: 'm', items: [{ sku: 'a' }] });
    expect(JSON.stringify(result.structuredContent)).not.toContain('null');
    expect(Object.keys((result.structuredContent as { items: object[] }).items[0])).toEqual(['sku']);
  });

  it('never mutates the object the tool returned', async () => {
    const returned = { message: 'm', items: [{ sku: 'a', secret: 's' }], extra: true, when: new Date(0) };
    const before = structuredClone(returned);
    await callRaw(returned);
    expect(returned).toEqual(before);
  });

  it('sends a text block that is exactly the JSON of structuredContent', async () => {
    const result = await client.callTool({ name: 'find', arguments: { query: 'hat', limit: 1 } });
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0].type).toBe('text');
    expect(JSON.parse(content[0].text)).toEqual(result.structuredContent);
    expect(content[0].text).not.toContain('internalCost');
    expect(content[0].text).not.toContain('SELECT');
  });

  it('sends results unwrapped, Dates as ISO strings', async () => {
    const addedAt = new Date('2026-01-02T03:04:05.000Z');
    const result = await callRaw({ message: 'dated', items: [{ sku: 'a', addedAt }] });
    expect(result.structuredContent).toEqual({ message: 'dated', items: [{ sku: 'a', addedAt: '2026-01-02T03:04:05.000Z' }] });
    expect(result.structuredContent).not.toHaveProperty('result');
  });

  it('recognises ToolError as a class instance and as a plain literal', async () => {
    for (const query of ['missing', 'missing-instance']) {
      const result = await client.callTool({ name: 'find', arguments: { query } });
      expect(result.isError).toBe(true);
      expect(Object.keys(result.structuredContent ?? {})).toEqual(['error', 'detail']);
      expect(result.structuredContent).toMatchObject({ error: 'not_found' });
    }
  });

  it('hands the tool an instance of its args class, with defaults and converted dates', async () => {
    let received: FindArgs | undefined;
    const own = await connectClient(buildServer({ name: 'wire', version: '1', toolsets: [catalogWith({ onFind: (args) => (received = args) })], logger: recordingLogger().logger }));
    await own.callTool({ name: 'find', arguments: { query: 'x', since: '2026-05-01T00:00:00Z' } });
    await own.close();
    const args = received!;
    expect(args).toBeInstanceOf(FindArgs);
    expect(args.limit).toBe(2);
    expect(args.since).toBeInstanceOf(Date);
    expect(args.since?.toISOString()).toBe('2026-05-01T00:00:00.000Z');
  });
});
