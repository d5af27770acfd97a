import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn } from 'class-validator';
import { ContractError, Field, RequestContext, Tool, ToolResult, Toolset, buildServer } from '../../src';
import { recordingLogger } from '../support/connect';

const REGIONS = { eu: 'Europe', us: 'United States', ap: 'Asia Pacific' };

/** Every enum variant SEP-1330 defines, as DTO fields. */
class DeployForm {
  @Field({ description: 'Where to deploy.', enumTitles: REGIONS })
  @IsIn(Object.keys(REGIONS))
  region!: string;

  @Field(() => [String], { description: 'Labels for the deployment.' })
  @IsArray()
  @IsIn(['red', 'green', 'blue'], { each: true })
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  tags!: string[];

  @Field(() => [String], { description: 'What matters most.', enumTitles: { fast: 'As fast as possible', cheap: 'As cheap as possible' } })
  @IsIn(['fast', 'cheap'], { each: true })
  @ArrayMaxSize(1)
  priorities!: string[];

  @Field({ description: 'Size.', enumTitles: { s: 'Small', l: 'Large' }, legacyEnumNames: true })
  @IsIn(['s', 'l'])
  size!: string;

  @Field({ description: 'Channel.' })
  @IsIn(['stable', 'beta'])
  channel!: string;
}

class DeployResult extends ToolResult {}

@Toolset({ name: 'deploys' })
class DeployToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Deploy, asking the user where and how.', returns: DeployResult, elicits: [DeployForm] })
  async deploy(): Promise<DeployResult> {
    const answer = await this.context.elicit('Where and how?', DeployForm);
    if (answer.action !== 'accept') return { message: answer.action };
    const { region, tags, priorities, size, channel } = answer.content;
    return { message: JSON.stringify({ region, tags, priorities, size, channel, tagsIsArray: Array.isArray(tags) }) };
  }
}

/** SEP-1330's shapes, written from the spec: what a client must receive. */
const EXPECTED_SCHEMA = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      description: 'Where to deploy.',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'United States' },
        { const: 'ap', title: 'Asia Pacific' },
      ],
    },
    tags: { type: 'array', description: 'Labels for the deployment.', items: { type: 'string', enum: ['red', 'green', 'blue'] }, minItems: 1, maxItems: 2 },
    priorities: {
      type: 'array',
      description: 'What matters most.',
      items: {
        anyOf: [
          { const: 'fast', title: 'As fast as possible' },
          { const: 'cheap', title: 'As cheap as possible' },
        ],
      },
      maxItems: 1,
    },
    size: { type: 'string', description: 'Size.', enum: ['s', 'l'], enumNames: ['Small', 'Large'] },
    channel: { type: 'string', description: 'Channel.', enum: ['stable', 'beta'] },
  },
  required: ['region', 'tags', 'priorities', 'size', 'channel'],
};

const server = buildServer({ name: 'deploys', version: '1', toolsets: [DeployToolset], logger: recordingLogger().logger });
type Content = Record<string, unknown>;

/** A 2026-07-28 client: the server asks through an input_required round trip. */
async function modern(content: Content) {
  const asked: { requestedSchema?: unknown }[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'modern', version: '0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params as never);
    return { action: 'accept', content } as never;
  });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'deploy', arguments: {} });
  await client.close();
  return { result, asked };
}

/** A 2025-era session: the server sends elicitation/create to the client. */
async function legacy(content: Content) {
  const asked: { requestedSchema?: unknown }[] = [];
  const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never);
  const client = new LegacyClient({ name: 'legacy', version: '0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as never);
    return { action: 'accept', content } as never;
  });
  await client.connect(clientSide);
  const result = await client.callTool({ name: 'deploy', arguments: {} });
  await client.close();
  return { result, asked };
}

const GOOD = { region: 'us', tags: ['red', 'blue'], priorities: ['cheap'], size: 'l', channel: 'beta' };
const text = (result: unknown) => ((result as { content: { text: string }[] }).content)[0]!.text;

describe.each([
  ['a 2026-07-28 client (input_required)', modern],
  ['a 2025-era session (elicitation/create)', legacy],
])('titled and multi-select enums, asked of %s', (_era, ask) => {
  it('sends each variant in the shape SEP-1330 defines and gets the answer back typed', async () => {
    const { result, asked } = await ask(GOOD);
    expect(asked[0]!.requestedSchema).toEqual(EXPECTED_SCHEMA);
    expect(result.isError).toBeFalsy();
    expect(JSON.parse((result.structuredContent as { message: string }).message)).toEqual({ ...GOOD, tagsIsArray: true });
  });

  it('refuses a value outside the enum, naming the field', async () => {
    const { result } = await ask({ ...GOOD, region: 'mars' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/invalid_elicitation_answer: The answer to "Where and how\?" does not fit DeployForm: 'region'/);
  });

  it('refuses too many selections and a selection outside the enum, naming the field', async () => {
    const many = await ask({ ...GOOD, tags: ['red', 'green', 'blue'] });
    expect(text(many.result)).toMatch(/does not fit DeployForm: 'tags': .*2/);
    const outside = await ask({ ...GOOD, priorities: ['free'] });
    expect(text(outside.result)).toMatch(/does not fit DeployForm: 'priorities' \(item 1\)/);
  });
});

describe('the startup gate on titled and multi-select fields', () => {
  function violations(form: new () => object): string[] {
    @Toolset({ name: 'broken' })
    class Broken {
      constructor(private readonly context: RequestContext) {}
      @Tool({ description: 'Asks.', returns: DeployResult, elicits: [form] })
      async ask(): Promise<DeployResult> {
        await this.context.elicit('?', form);
        return { message: 'ok' };
      }
    }
    try {
      buildServer({ name: 'broken', version: '1', toolsets: [Broken], logger: recordingLogger().logger });
    } catch (error) {
      return (error as ContractError).violations.map((v) => v.message);
    }
    throw new Error('the gate let it through');
  }

  it('names the field and the fix for titles that do not match the values, or have none to title', () => {
    class Mismatch {
      @Field({ enumTitles: { eu: 'Europe', mars: 'Mars' } })
      @IsIn(['eu', 'us'])
      region!: string;

      @Field({ enumTitles: { a: 'A' } })
      free!: string;

      @Field({ legacyEnumNames: true })
      @IsIn(['x'])
      plain!: string;

      @Field(() => [String], { enumTitles: { a: 'A' }, legacyEnumNames: true })
      @IsIn(['a'], { each: true })
      many!: string[];

      @Field(() => [Number])
      counts!: number[];
    }
    expect(violations(Mismatch)).toEqual([
      `[toolset 'broken' > tool 'ask' > Mismatch.region] 'region' of the elicitation form 'Mismatch' has enumTitles with no title for "us", and titles for "mars", which are not its values. Fix: give exactly one title per enum value, keyed by the value.`,
      expect.stringContaining(`'free' of the elicitation form 'Mismatch' has enumTitles but no enum values to title. Fix: give its values with @IsIn(['a', 'b'])`),
      expect.stringContaining(`'plain' of the elicitation form 'Mismatch' sets legacyEnumNames without enumTitles`),
      expect.stringContaining(`'many' of the elicitation form 'Mismatch' is a multi-select with legacyEnumNames`),
      expect.stringContaining(`'counts' of the elicitation form 'Mismatch' is an array of anything but string enum values; a form has only string, number, integer, boolean and enum fields, and arrays of string enum values (multi-selects). Fix:`),
    ]);
  });
});
