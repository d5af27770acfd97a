import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, Field, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger, type ServerDefinition } from '@toolsets/core';

// The built library: the sandbox runs programs on its built worker script.
const { codeMode } = require('../../dist') as typeof import('../../src');

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

class Totals {
  @Field({ description: 'How many videos the channel has published, all time, including unlisted ones.' })
  total!: number;

  @Field({ description: 'How many of them were published in the last thirty days, by the channel or its editors.' })
  recent!: number;

  @Field({ description: 'The share of views that came from subscribers, between zero and one, over the last thirty days.' })
  subscriberShare!: number;
}

class ChannelResult extends ToolResult {
  @Field({ description: 'The name the channel shows on its page, as its owners last set it.' })
  name!: string;

  @Field(() => Totals, { description: 'Counts over the channel, computed nightly; they lag the live figures by up to a day.' })
  totals!: Totals;
}

/** A toolset whose list entry must be cut to fit its budget: its nested result becomes an open object in tools/list. */
@Toolset({ name: 'channels', schemaBudget: 700 })
class ChannelsToolset {
  @Tool({ description: 'Reads a channel and its counts.', returns: ChannelResult })
  channel(): ChannelResult {
    return { message: 'The channel.', name: 'Clips', totals: { total: 40, recent: 2, subscriberShare: 0.25 } };
  }
}

/**
 * The schema budget is for `tools/list`: code mode declares results in full (the schema the server
 * validates with), so a program that reads a nested field as its type type-checks and runs.
 */
describe('code mode over a toolset whose list entries are cut to a schema budget', () => {
  let definition: ServerDefinition;
  let http: HttpServerHandle;
  const connect = async (mode?: string) => {
    const client = new Client({ name: 'budget', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.mounts[0]!.url}${mode ? `?mode=${mode}` : ''}`)));
    return client;
  };
  beforeAll(async () => {
    definition = buildServer({ name: 'channels', version: '1', toolsets: [ChannelsToolset], logger: quiet, codeMode: codeMode({ workers: 1 }) });
    http = await serveHttp(definition, { port: 0, drainDelayMs: 0, logger: quiet });
  });
  afterAll(async () => {
    await http.close();
    await definition.codeMode!.close();
  });

  it('advertises the cut schema in tools/list, and declares the whole result to programs', async () => {
    const plain = await connect();
    const [tool] = (await plain.listTools()).tools;
    await plain.close();
    expect(JSON.stringify(tool!.outputSchema)).toContain("cut to fit this tool's 700-byte schema budget");
    expect(JSON.stringify(tool!.outputSchema)).not.toContain('subscriberShare');

    const code = await connect('code');
    try {
      const described = await code.callTool({ name: 'describe', arguments: { names: ['channel'] } });
      const declarations = String((described.structuredContent as { declarations: string }).declarations);
      expect(declarations).toMatch(/subscriberShare: number;/);
      const ran = await code.callTool({ name: 'execute', arguments: { program: 'const c = await api.channels.channel({}); const share: number = c.totals.subscriberShare; return { total: c.totals.total, share };' } });
      expect(ran.structuredContent).toMatchObject({ value: { total: 40, share: 0.25 }, calls: 1 });
    } finally {
      await code.close();
    }
  });
});
