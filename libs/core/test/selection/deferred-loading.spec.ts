import 'reflect-metadata';
import { buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';

class Said extends ToolResult {}

class QueryArgs {
  @Field({ description: 'What to look for.' })
  query!: string;
}

@Toolset({ name: 'issues', description: 'Find, file and triage issues.' })
class IssuesToolset {
  @Tool({ description: 'Search issues.', args: QueryArgs, returns: Said, annotations: { readOnlyHint: true } })
  searchIssues(args: QueryArgs): Said {
    return { message: args.query };
  }

  @Tool({ description: 'File an issue.', args: QueryArgs, returns: Said })
  fileIssue(args: QueryArgs): Said {
    return { message: args.query };
  }
}

@Toolset({ name: 'billing', description: 'Invoices and refunds.' })
class BillingToolset {
  @Tool({ description: 'Refund an invoice.', args: QueryArgs, returns: Said })
  refund(args: QueryArgs): Said {
    return { message: args.query };
  }
}

type Tool = { name: string; _meta?: Record<string, unknown> };

/** One JSON-RPC request on the 2026-07-28 wire: the answer's body as sent, and its headers. */
async function post(url: string, method: string, params: Record<string, unknown> = {}): Promise<{ text: string; etag: string | null; result: Record<string, unknown> }> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'deferring-client', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await response.text();
  return { text, etag: response.headers.get('etag'), result: (JSON.parse(text) as { result: Record<string, unknown> }).result };
}

/**
 * The recipe docs/large-catalogs.md gives a client that defers loading tools (Anthropic's tool
 * search with defer_loading, OpenAI's tool_search with namespaces), followed against what the
 * server actually serves: groups/list once for the namespaces, one group's tools on demand.
 */
describe('a client that defers loading, using groups as namespaces', () => {
  let handle: HttpServerHandle;
  let url: string;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'desk', version: '1', toolsets: [IssuesToolset, BillingToolset] }), { port: 0 });
    url = `${handle.origin}/mcp`;
  });
  afterAll(() => handle.close());

  it("offers each group as a namespace, loads a group's tools with ?toolsets=, and the namespaces together are the whole catalog", async () => {
    const namespaces = (await post(url, 'groups/list')).result['groups'] as { name: string; description: string }[];
    expect(namespaces).toEqual([
      { name: 'issues', description: 'Find, file and triage issues. 2 tools.' },
      { name: 'billing', description: 'Invoices and refunds. 1 tool.' },
    ]);
    const whole = (await post(url, 'tools/list')).result['tools'] as Tool[];
    const loaded: Tool[] = [];
    for (const { name } of namespaces) {
      const tools = (await post(`${url}?toolsets=${name}`, 'tools/list')).result['tools'] as Tool[];
      // Each loaded tool says which namespace it came from, so the client can file it there.
      for (const tool of tools) expect(tool._meta?.['io.modelcontextprotocol/groups']).toEqual([name]);
      loaded.push(...tools);
    }
    expect(loaded.map((tool) => tool.name).sort()).toEqual(whole.map((tool) => tool.name).sort());
    // A group's entries are the whole list's entries, byte for byte: loading a namespace never changes a definition.
    for (const tool of loaded) expect(tool).toEqual(whole.find((entry) => entry.name === tool.name));
  });

  it('serves each list byte for byte the same on every request, with the same ETag, so a client can cache it in its prompt', async () => {
    for (const target of [url, `${url}?toolsets=issues`, `${url}?toolsets=billing&readonly=true`]) {
      const first = await post(target, 'tools/list');
      const second = await post(target, 'tools/list');
      expect(second.text).toBe(first.text);
      expect(first.etag).toMatch(/^"[\w-]+"$/);
      expect(second.etag).toBe(first.etag);
    }
    // Groups/list too: the namespaces a client offers are stable while the catalog is.
    expect((await post(url, 'groups/list')).text).toBe((await post(url, 'groups/list')).text);
  });
});
