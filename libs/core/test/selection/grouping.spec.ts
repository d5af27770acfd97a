import 'reflect-metadata';
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { buildServer, isolateMetadata, serveHttp, Tool, Toolset, type HttpServerHandle } from '../../src';
import { AdminToolset, NotesToolset, Said } from '../support/grouped-toolsets';
import { connectClient, connectLegacyClient } from '../support/connect';

const GROUPS = 'io.modelcontextprotocol/groups';
const server = () => buildServer({ name: 'grouped', version: '1', toolsets: [NotesToolset, AdminToolset] });

/** A test client written from SEP-2084: groups/list over raw JSON-RPC on HTTP, in either era. */
async function groupsList(url: string, era: 'modern' | 'legacy', params: Record<string, unknown> = {}): Promise<{ result?: { groups: { name: string; description: string }[]; nextCursor?: string }; error?: { code: number; message: string } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'grouping-client', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  if (era === 'modern') Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'groups/list' });
  else headers['mcp-protocol-version'] = '2025-11-25';
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'groups/list', params: era === 'modern' ? { ...params, _meta: meta } : params }) });
  const text = await response.text();
  return JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').find((line) => line.startsWith('data: '))!.slice(6) : text);
}

/** groups/list's result, for the SDK clients' custom-request API. */
const groupsResult = z.object({ groups: z.array(z.object({ name: z.string(), description: z.string() }).passthrough()), nextCursor: z.string().optional() }).passthrough();

describe('the grouping extension (io.modelcontextprotocol/grouping)', () => {
  const handles: HttpServerHandle[] = [];
  afterAll(() => Promise.all(handles.map((handle) => handle.close())));
  const serve = async (definition = server()) => {
    const handle = await serveHttp(definition, { port: 0 });
    handles.push(handle);
    return `${handle.origin}/mcp`;
  };

  it.each(['modern', 'legacy'] as const)('lists each toolset as a group, described for a model choosing a namespace, over HTTP (%s)', async (era) => {
    const url = await serve();
    const all = (await groupsList(url, era)).result!;
    expect(all.groups).toEqual([
      { name: 'notes', description: 'Keep and find short notes. 2 tools.' },
      { name: 'admin', description: 'Administer the note store. 1 tool.' },
    ]);
    expect(all.nextCursor).toBeUndefined();
    // The selection, and read-only mode, filter groups as they filter tools: a group with no tool left is not listed.
    expect((await groupsList(`${url}?readonly=true`, era)).result!.groups).toEqual([{ name: 'notes', description: 'Keep and find short notes. 1 tool.' }]);
    expect((await groupsList(`${url}?toolsets=admin`, era)).result!.groups.map((group) => group.name)).toEqual(['admin']);
    expect((await groupsList(url, era, { cursor: 'bm9wZQ' })).error).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid cursor') });
  });

  it("names each tool's group in _meta, and answers the SDK clients of both eras over a connection (as stdio does)", async () => {
    const modern = await connectClient(server(), { selection: { mode: 'tools', readonly: true } });
    expect(modern.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/grouping']);
    expect((await modern.listTools()).tools.map((tool) => [tool.name, tool._meta?.[GROUPS]])).toEqual([['list_notes', ['notes']]]);
    const asked = await modern.request({ method: 'groups/list', params: {} }, groupsResult as unknown as StandardSchemaV1<unknown, z.infer<typeof groupsResult>>);
    expect(asked.groups.map((group) => group.name)).toEqual(['notes']);
    await modern.close();
    const legacy = await connectLegacyClient(server());
    expect((await legacy.request({ method: 'groups/list', params: {} }, groupsResult)).groups.map((group) => group.name)).toEqual(['notes', 'admin']);
    expect((await legacy.listTools()).tools.map((tool) => tool._meta?.[GROUPS])).toEqual([['notes'], ['notes'], ['admin']]);
    await legacy.close();
  });

  it('pages a catalog of more groups than one answer holds with nextCursor', async () => {
    const restore = isolateMetadata();
    try {
      const classes = Array.from({ length: 130 }, (_, index) => {
        class Generated {
          ping(): Said {
            return { message: 'pong' };
          }
        }
        Tool({ name: `ping_${index}`, description: 'Ping.', returns: Said })(Generated.prototype, 'ping', Object.getOwnPropertyDescriptor(Generated.prototype, 'ping')!);
        Toolset({ name: `group-${index}`, description: `Group ${index}.` })(Generated);
        return Generated;
      });
      const url = await serve(buildServer({ name: 'many', version: '1', toolsets: classes }));
      const first = (await groupsList(url, 'modern')).result!;
      expect(first.groups).toHaveLength(100);
      const second = (await groupsList(url, 'modern', { cursor: first.nextCursor })).result!;
      expect(second.groups.map((group) => group.name)).toEqual(Array.from({ length: 30 }, (_, index) => `group-${100 + index}`));
      expect(second.nextCursor).toBeUndefined();
    } finally {
      restore();
    }
  });
});
