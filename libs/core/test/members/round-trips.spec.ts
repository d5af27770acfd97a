import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, ContractError, Field, RequestContext, Result, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

class NameForm {
  @Field()
  name!: string;
}

class OkForm {
  @Field()
  ok!: boolean;
}

@Result({ description: 'What happened.' })
class Done extends ToolResult {}

class FileArgs {
  @Field()
  file!: string;
}

class RegionArgs {
  @Field({ header: 'Region' })
  region!: string;

  @Field()
  query!: string;
}

@Toolset({ name: 'desk' })
class DeskToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Asks a name, the model and the roots at once.', returns: Done, elicits: [NameForm] })
  async all(): Promise<Done> {
    const [name, reply, roots] = await Promise.all([
      this.context.elicit('Your name?', NameForm, { key: 'who' }),
      this.context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }], maxTokens: 5 }, { key: 'model' }),
      this.context.roots({ key: 'roots' }),
    ]);
    const said = reply.content.type === 'text' ? reply.content.text : '';
    return { message: `${name.action === 'accept' ? name.content.name : '-'} / ${said} / ${roots.map((root) => root.uri).join(',')}` };
  }

  @Tool({ description: 'Deletes a file once the user confirms.', args: FileArgs, returns: Done, elicits: [OkForm] })
  async remove({ file }: FileArgs): Promise<Done> {
    const answer = await this.context.elicit(`Delete ${file}?`, OkForm, { key: 'confirm' });
    return { message: answer.action === 'accept' && answer.content.ok ? `Deleted ${file}.` : `Kept ${file}.` };
  }

  @Tool({ description: 'Looks in a region.', args: RegionArgs, returns: Done, text: 'message' })
  find({ region, query }: RegionArgs): Done {
    return { message: `${query} in ${region}` };
  }
}

const META = (capabilities: Record<string, unknown>) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const ALL = { elicitation: {}, sampling: {}, roots: {} };

/** One 2026-07-28 tools/call over HTTP, as written (no client in between): its status and JSON-RPC answer. */
async function call(url: string, name: string, params: Record<string, unknown>, options: { capabilities?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, ...params, _meta: META(options.capabilities ?? ALL) } }),
  });
  return { status: response.status, body: (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };
}

describe('a 2026-07-28 call that asks the client (multi round-trip)', () => {
  let handle: HttpServerHandle;
  let url: string;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'desk', version: '1', toolsets: [DeskToolset], logger: recordingLogger().logger, requestStateKey: 'k'.repeat(40) }), { port: 0 });
    url = `${handle.origin}/mcp`;
  });
  afterAll(() => handle.close());

  it('asks everything a call asks together in one round, under the names the tool gave, and finishes with the answers', async () => {
    const first = await call(url, 'all', { arguments: {} });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(Object.keys(first.body.result!['inputRequests'] as object).sort()).toEqual(['model', 'roots', 'who']);
    expect(first.body.result!['inputRequests']).toMatchObject({ who: { method: 'elicitation/create' }, model: { method: 'sampling/createMessage' }, roots: { method: 'roots/list' } });
    const answers = {
      who: { action: 'accept', content: { name: 'Ada', extra: 'dropped' } },
      model: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm', stopReason: 'endTurn' },
      roots: { roots: [{ uri: 'file:///work' }] },
    };
    const second = await call(url, 'all', { arguments: {}, inputResponses: answers, requestState: first.body.result!['requestState'] });
    expect(second.body.result).toMatchObject({ structuredContent: { message: 'Ada / Hello / file:///work' } });
  });

  it('refuses altered request state, and state made for other arguments, with -32602', async () => {
    const first = await call(url, 'remove', { arguments: { file: 'a.txt' } });
    const state = first.body.result!['requestState'] as string;
    const answers = { confirm: { action: 'accept', content: { ok: true } } };
    // The answers are not in this round's inputResponses of the next step: only the state carries them.
    // One character of the signature changed, always to another one (choosing by the last character left it unchanged once in 64 runs).
    const tampered = `${state.slice(0, -3)}${state.at(-3) === 'A' ? 'B' : 'A'}${state.slice(-2)}`;
    expect(tampered).not.toBe(state);
    const altered = await call(url, 'remove', { arguments: { file: 'a.txt' }, inputResponses: answers, requestState: tampered });
    expect(altered.body.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    // A confirmation given for a.txt, replayed for b.txt, deletes nothing.
    const confirmed = await call(url, 'remove', { arguments: { file: 'a.txt' }, inputResponses: answers, requestState: state });
    expect(confirmed.body.result).toMatchObject({ structuredContent: { message: 'Deleted a.txt.' } });
    const replayed = await call(url, 'remove', { arguments: { file: 'b.txt' }, requestState: state });
    expect(replayed.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('made for another call') });
  });

  it('refuses a call whose question the client declared no capability for with -32021 and HTTP 400, naming the capability', async () => {
    const refused = await call(url, 'remove', { arguments: { file: 'a.txt' } }, { capabilities: { sampling: {} } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
});

describe('an argument mirrored into a header (@Field({ header }), x-mcp-header)', () => {
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'desk', version: '1', toolsets: [DeskToolset], logger: recordingLogger().logger }), { port: 0 });
  });
  afterAll(() => handle.close());

  it('is advertised as x-mcp-header, sent by the SDK client as Mcp-Param-Region, and the call goes through', async () => {
    const client = new Client({ name: 'sdk', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const seen: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(`${handle.origin}/mcp`), {
      fetch: async (input, init) => {
        const region = new Headers(init?.headers).get('mcp-param-region');
        if (region) seen.push(region);
        return fetch(input, init);
      },
    });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.find((tool) => tool.name === 'find')!.inputSchema.properties!['region']).toMatchObject({ type: 'string', 'x-mcp-header': 'Region' });
      const result = await client.callTool({ name: 'find', arguments: { region: 'eu-west', query: 'cafés' } });
      expect(result.content).toEqual([{ type: 'text', text: 'cafés in eu-west' }]);
      expect(seen).toEqual(['eu-west']);
    } finally {
      await client.close();
    }
  });

  it('refuses a call whose header is missing, differs, or is badly encoded with 400 and -32020; a Base64 value that matches passes', async () => {
    const url = `${handle.origin}/mcp`;
    const args = { arguments: { region: 'Zürich', query: 'x' } };
    const missing = await call(url, 'find', args);
    const differs = await call(url, 'find', args, { headers: { 'mcp-param-region': 'geneva' } });
    const unpadded = await call(url, 'find', args, { headers: { 'mcp-param-region': '=?base64?WsO8cmljaA?=' } });
    for (const refused of [missing, differs, unpadded]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: -32020, data: { mismatch: { header: 'Mcp-Param-Region' } } });
    }
    expect(differs.body.error!.message).toContain('geneva');
    const encoded = await call(url, 'find', args, { headers: { 'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=` } });
    expect(encoded.body.result).toMatchObject({ structuredContent: { message: 'x in Zürich' } });
  });

  it('is checked at startup: on a nullable argument, or twice in one tool, the gate names the tool and the fix', () => {
    class Twice {
      @Field({ header: 'Region' })
      a!: string;

      @Field({ header: 'region' })
      b!: string;
    }
    class Nullable {
      @Field(() => String, { header: 'Zone', nullable: true })
      zone!: string | null;
    }
    @Toolset({ name: 'bad' })
    class BadToolset {
      @Tool({ description: 'Twice.', args: Twice, returns: Done })
      twice(): Done {
        return { message: '' };
      }

      @Tool({ description: 'Nullable.', args: Nullable, returns: Done })
      nullable(): Done {
        return { message: '' };
      }
    }
    let error: unknown;
    try {
      buildServer({ name: 'bad', version: '1', toolsets: [BadToolset] });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ContractError);
    const message = (error as Error).message;
    expect(message).toMatch(/tool 'twice'.*'Region' and 'region' are the same in any case.*Fix: put `@Field\(\{ header: 'Name' \}\)`/s);
    expect(message).toMatch(/tool 'nullable'.*'zone[^']*' has x-mcp-header, which may only mark a property reached through 'properties' alone/s);
  });
});

