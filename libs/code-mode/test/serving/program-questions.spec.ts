import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { buildServer, Field, RequestContext, Result, serveHttp, Tool, ToolError, ToolResult, Toolset, type HttpServerHandle, type Logger, type ServerDefinition } from '@toolsets/core';

// The built library: the sandbox runs programs on its built worker script.
const { codeMode } = require('../../dist') as typeof import('../../src');

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What the tools really did, call by call (a replayed call does nothing here). */
const shop = { reserved: 0, placed: 0, orderRuns: 0, lookups: 0 };

class ItemArgs {
  @Field({ description: 'What to order.' })
  item!: string;
}

class ConfirmForm {
  @Field({ description: 'Place it?' })
  confirm!: boolean;
}

@Result({ description: 'A reservation.' })
class Reserved extends ToolResult {
  @Field()
  reserved!: number;
}

@Result({ description: 'The order.' })
class Placed extends ToolResult {
  @Field()
  item!: string;
}

@Result({ description: 'Something that took its time.' })
class Looked extends ToolResult {}

@Toolset({ name: 'orders', description: 'Reserve and order things.' })
class OrdersToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Reserve an item.', args: ItemArgs, returns: Reserved })
  reserve({ item }: ItemArgs): Reserved {
    shop.reserved++;
    return { message: `Reserved ${item}.`, reserved: shop.reserved };
  }

  @Tool({ description: 'Place an order, once the user confirms.', args: ItemArgs, returns: [Placed, ToolError], elicits: [ConfirmForm] })
  async place_order({ item }: ItemArgs): Promise<Placed | ToolError> {
    shop.orderRuns++;
    const answer = await this.context.elicit(`Place the order for ${item}?`, ConfirmForm, { key: 'confirm' });
    if (answer.action !== 'accept') return new ToolError(answer.action === 'decline' ? 'declined' : 'cancelled', `The user ${answer.action}d the order.`);
    if (!answer.content.confirm) return new ToolError('declined', 'The user said no.');
    shop.placed++;
    return { message: `Ordered ${item}.`, item };
  }

  @Tool({ description: 'Look something up, slowly (2 s).', returns: Looked, annotations: { readOnlyHint: true } })
  async lookup(): Promise<Looked> {
    shop.lookups++;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return { message: 'Looked.' };
  }
}

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
type Outcome = { isError?: boolean; structuredContent?: Record<string, unknown> };

/** Reserves, then orders (which asks), then reserves again: what each call saw. */
const ORDER_PROGRAM = `
const first = await api.orders.reserve({ item: 'lamp' });
const order = await api.orders.place_order({ item: 'lamp' });
const second = await api.orders.reserve({ item: 'shade' });
return { first: first.reserved, order: 'error' in order ? order.error : order.message, second: second.reserved };`;

describe('a program whose call asks the user something: the question goes to the client, and the program runs again from the start with its earlier calls answered from the first run', () => {
  let definition: ServerDefinition;
  let http: HttpServerHandle;
  let url: string;

  beforeAll(async () => {
    definition = buildServer({ name: 'shop', version: '1.0.0', toolsets: [OrdersToolset], logger: quiet, codeMode: codeMode({ workers: 2 }) });
    http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet, sessions: true });
    url = `${http.mounts[0]!.url}?mode=code`;
  });
  beforeEach(() => Object.assign(shop, { reserved: 0, placed: 0, orderRuns: 0, lookups: 0 }));
  afterAll(async () => {
    await http.close();
    await definition.codeMode!.close();
  });

  /** A 2026-07-28 client that answers every question with `answer` (its SDK retries execute with it), and what it was asked. */
  async function modernClient(answer: Answer, delayMs = 0) {
    const asked: { message: string; requestedSchema: unknown }[] = [];
    const client = new Client({ name: 'modern', version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as never);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer as never;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { client, asked };
  }

  /** A 2025-11-25 client over an HTTP session, answering with `answer`. */
  async function legacyClient(answer: Answer) {
    const asked: { message: string }[] = [];
    const client = new LegacyClient({ name: 'legacy', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as never);
      return answer as never;
    });
    await client.connect(new LegacyHttpTransport(new URL(url)));
    return { client, asked };
  }

  const execute = async (client: Pick<Client, 'callTool'>, program: string) => (await client.callTool({ name: 'execute', arguments: { program } })) as Outcome;

  it('2026-07-28: execute answers input_required with the question; on the answer the program runs again, its first reservation answered from the first run, not made twice', async () => {
    const { client, asked } = await modernClient({ action: 'accept', content: { confirm: true } });
    try {
      const done = await execute(client, ORDER_PROGRAM);
      expect(done.structuredContent).toMatchObject({ value: { first: 1, order: 'Ordered lamp.', second: 2 }, calls: 3 });
      expect(asked).toEqual([expect.objectContaining({ message: 'Place the order for lamp?', requestedSchema: expect.objectContaining({ properties: { confirm: expect.objectContaining({ type: 'boolean' }) } }) })]);
      // Reserved once before the question and once after it; the order tool ran twice (asked, then answered) and ordered once.
      expect(shop).toEqual({ reserved: 2, placed: 1, orderRuns: 2, lookups: 0 });
    } finally {
      await client.close();
    }
  });

  it('2025-11-25 over a session: the question goes to the client as an elicitation request while execute waits, then the program runs again', async () => {
    const { client, asked } = await legacyClient({ action: 'accept', content: { confirm: true } });
    try {
      const done = await execute(client as unknown as Pick<Client, 'callTool'>, ORDER_PROGRAM);
      expect(done.structuredContent).toMatchObject({ value: { first: 1, order: 'Ordered lamp.', second: 2 }, calls: 3 });
      expect(asked).toEqual([expect.objectContaining({ message: 'Place the order for lamp?' })]);
      expect(shop).toEqual({ reserved: 2, placed: 1, orderRuns: 2, lookups: 0 });
    } finally {
      await client.close();
    }
  });

  it.each([
    ['2026-07-28', 'decline', 'declined'],
    ['2026-07-28', 'cancel', 'cancelled'],
    ['2025-11-25', 'decline', 'declined'],
    ['2025-11-25', 'cancel', 'cancelled'],
  ] as const)('%s: a question answered %s reaches the tool, whose answer the program reads and goes on from', async (era, action, kind) => {
    const { client } = era === '2026-07-28' ? await modernClient({ action }) : await legacyClient({ action });
    try {
      const done = await execute(client as Pick<Client, 'callTool'>, ORDER_PROGRAM);
      expect(done.structuredContent).toMatchObject({ value: { first: 1, order: kind, second: 2 }, calls: 3 });
      expect(shop).toMatchObject({ reserved: 2, placed: 0, orderRuns: 2 });
    } finally {
      await client.close();
    }
  });

  it('stops a replay that calls a different tool than the first run did, saying which call and the rule, and makes no call past it', async () => {
    // The first run's lookup really takes 2 s, so the program orders (and is asked); replayed, the lookup answers at once, so it reserves instead.
    const program = `
const started = Date.now();
await api.orders.lookup();
if (Date.now() - started >= 2000) await api.orders.place_order({ item: 'lamp' });
else await api.orders.reserve({ item: 'lamp' });
return 'done';`;
    const { client, asked } = await modernClient({ action: 'accept', content: { confirm: true } });
    try {
      const done = await execute(client, program);
      expect(done).toMatchObject({ isError: true, structuredContent: { error: 'replay_mismatch' } });
      expect(done.structuredContent?.['detail']).toBe(
        "This run's call 2 was reserve, where the first run's was place_order. A program whose calls ask the user something runs again from the start once answered, its earlier calls answered from the first run: it must make the same calls, in the same order, with the same arguments (nothing that depends on the time, randomness or a call whose answer it did not wait for).",
      );
      expect(asked).toHaveLength(1);
      expect(shop).toEqual({ reserved: 0, placed: 0, orderRuns: 1, lookups: 1 });
    } finally {
      await client.close();
    }
  });

  it('stops a replay whose call has other arguments than the first run’s', async () => {
    const program = "const at = Date.now();\nawait api.orders.reserve({ item: 'lamp ' + at });\nawait api.orders.place_order({ item: 'lamp' });\nreturn 'done';";
    // The answer comes 20 ms later: the replay's Date.now() is another millisecond.
    const { client } = await modernClient({ action: 'accept', content: { confirm: true } }, 20);
    try {
      const done = await execute(client, program);
      expect(done).toMatchObject({ isError: true, structuredContent: { error: 'replay_mismatch', detail: expect.stringContaining("This run's call 1 was reserve again, with other arguments, where the first run's was reserve.") } });
      expect(shop).toMatchObject({ reserved: 1, placed: 0, orderRuns: 1 });
    } finally {
      await client.close();
    }
  });

  it('a client that cannot be asked: the call fails as outside code mode, and the program reads that and goes on', async () => {
    const plain = new Client({ name: 'no-elicitation', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await plain.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      // The tool declares ToolError among its results: the refusal is a value the program branches on.
      const done = await execute(plain, "const order = await api.orders.place_order({ item: 'lamp' });\nreturn 'error' in order ? order.error : 'ordered';");
      expect(done.structuredContent).toMatchObject({ value: 'elicitation_unavailable', calls: 1 });
      expect(shop).toMatchObject({ orderRuns: 1, placed: 0 });
    } finally {
      await plain.close();
    }
  });

  it('refuses a requestState made for another program (the sealed record is bound to the caller and the program)', async () => {
    const first = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'execute' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute', arguments: { program: ORDER_PROGRAM }, _meta: META } }),
    });
    const round = ((await first.json()) as { result: { resultType?: string; requestState: string; inputRequests: Record<string, unknown> } }).result;
    expect(Object.keys(round.inputRequests)).toEqual(['call-1/confirm']);
    const retried = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'execute' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'execute', arguments: { program: `${ORDER_PROGRAM}\n// another program` }, inputResponses: { 'call-1/confirm': { action: 'accept', content: { confirm: true } } }, requestState: round.requestState, _meta: META },
      }),
    });
    const refused = (await retried.json()) as { error?: { code: number; message: string } };
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('made for another call') });
    expect(shop).toMatchObject({ reserved: 1, placed: 0 });
  });
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
