import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { IsIn, IsOptional, Max, Min } from 'class-validator';
import { ContractError, Field, RequestContext, Result, Tool, ToolResult, Toolset, buildServer } from '../../src';
import { connectClient, recordingLogger } from '../support/connect';

class TableForm {
  @Field({ description: 'How many people.' })
  @Min(1)
  @Max(12)
  guests!: number;

  @Field({ description: 'Inside or outside.' })
  @IsIn(['inside', 'outside'])
  seating!: string;
}

class ReminderForm {
  @Field()
  remind!: boolean;
}

@Result({ description: 'The booking.' })
class BookingResult extends ToolResult {}

let runs = 0;

@Toolset({ name: 'restaurant' })
class RestaurantToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Book a table, asking the user for the details.', returns: BookingResult, elicits: [TableForm] })
  async book(): Promise<BookingResult> {
    runs++;
    const answer = await this.context.elicit('How many guests, and where?', TableForm);
    if (answer.action !== 'accept') return { message: `Booking ${answer.action}d.` };
    const form: TableForm = answer.content;
    return { message: `Booked ${form.guests} ${form.seating} (${form instanceof TableForm ? 'a TableForm' : 'a plain object'}).` };
  }

  @Tool({ description: 'Book, then ask whether to add a reminder.', returns: BookingResult, elicits: [TableForm, ReminderForm] })
  async bookWithReminder(): Promise<BookingResult> {
    const table = await this.context.elicit('How many guests, and where?', TableForm);
    const reminder = await this.context.elicit('Remind you the day before?', ReminderForm);
    const guests = table.action === 'accept' ? table.content.guests : 0;
    const remind = reminder.action === 'accept' && reminder.content.remind;
    return { message: `Booked ${guests}${remind ? ', with a reminder' : ''}.` };
  }

  @Tool({ description: 'Name the restaurant with the client model.', returns: BookingResult })
  async name(): Promise<BookingResult> {
    const reply = await this.context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Name a restaurant.' } }], maxTokens: 20 });
    return { message: `The model says: ${reply.content.type === 'text' ? reply.content.text : reply.content.type}.` };
  }
}

const server = buildServer({ name: 'restaurant', version: '1.0.0', toolsets: [RestaurantToolset], logger: recordingLogger().logger });
type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'Chez Nous' }, model: 'test-model', stopReason: 'endTurn' };

const DISCOVERY = { selection: { readonly: false, mode: 'discovery' as const } };

async function modernClient(answer: Answer, connection?: typeof DISCOVERY): Promise<{ client: Client; asked: unknown[] }> {
  const asked: unknown[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, connection);
  const client = new Client({ name: 'modern', version: '0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return answer as never;
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push(request.params);
    return SAMPLED as never;
  });
  await client.connect(clientSide);
  return { client, asked };
}

async function legacyClient(answer: Answer | undefined, connection?: typeof DISCOVERY): Promise<{ client: LegacyClient; asked: unknown[] }> {
  const asked: unknown[] = [];
  const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never, connection);
  const client = new LegacyClient({ name: 'legacy', version: '0' }, { capabilities: answer ? { elicitation: {}, sampling: {} } : {} });
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer as never;
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params);
      return SAMPLED as never;
    });
  }
  await client.connect(clientSide);
  return { client, asked };
}

const FORM_SCHEMA = {
  type: 'object',
  properties: {
    guests: { type: 'number', description: 'How many people.', minimum: 1, maximum: 12 },
    seating: { type: 'string', enum: ['inside', 'outside'], description: 'Inside or outside.' },
  },
  required: ['guests', 'seating'],
};

describe('RequestContext.elicit and sample', () => {
  it('asks a 2026-07-28 client through an input_required round trip, running the tool again with the answer', async () => {
    runs = 0;
    const { client, asked } = await modernClient({ action: 'accept', content: { guests: 4, seating: 'outside' } });
    expect((await client.callTool({ name: 'book', arguments: {} })).structuredContent).toEqual({ message: 'Booked 4 outside (a TableForm).' });
    expect(asked).toEqual([expect.objectContaining({ message: 'How many guests, and where?', requestedSchema: FORM_SCHEMA })]);
    expect(runs).toBe(2);
    await client.close();
  });

  it('asks through call_tool in discovery mode too, in both eras, and the answer reaches the tool', async () => {
    runs = 0;
    const modern = await modernClient({ action: 'accept', content: { guests: 5, seating: 'inside' } }, DISCOVERY);
    const viaModern = await modern.client.callTool({ name: 'call_tool', arguments: { name: 'book', arguments: {} } });
    expect(viaModern.structuredContent).toEqual({ message: 'Booked 5 inside (a TableForm).' });
    expect(modern.asked).toEqual([expect.objectContaining({ message: 'How many guests, and where?', requestedSchema: FORM_SCHEMA })]);
    expect(runs).toBe(2);
    await modern.client.close();
    const legacy = await legacyClient({ action: 'accept', content: { guests: 6, seating: 'outside' } }, DISCOVERY);
    const viaLegacy = await legacy.client.callTool({ name: 'call_tool', arguments: { name: 'book', arguments: {} } });
    expect(viaLegacy.structuredContent).toEqual({ message: 'Booked 6 outside (a TableForm).' });
    await legacy.client.close();
  });

  it('keeps earlier answers across round trips when a call asks twice (2026-07-28)', async () => {
    const asked: string[] = [];
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'modern', version: '0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return (request.params.message.startsWith('How many') ? { action: 'accept', content: { guests: 3, seating: 'inside' } } : { action: 'accept', content: { remind: true } }) as never;
    });
    await client.connect(clientSide);
    expect((await client.callTool({ name: 'book_with_reminder', arguments: {} })).structuredContent).toEqual({ message: 'Booked 3, with a reminder.' });
    expect(asked).toEqual(['How many guests, and where?', 'Remind you the day before?']);
    await client.close();
  });

  it('asks a 2025-era client with a server-to-client request on its connection', async () => {
    runs = 0;
    const { client, asked } = await legacyClient({ action: 'accept', content: { guests: 2, seating: 'inside' } });
    expect((await client.callTool({ name: 'book', arguments: {} })).structuredContent).toEqual({ message: 'Booked 2 inside (a TableForm).' });
    expect(asked).toEqual([expect.objectContaining({ message: 'How many guests, and where?', requestedSchema: FORM_SCHEMA })]);
    expect(runs).toBe(1);
    await client.close();
  });

  it.each(['modern', 'legacy'] as const)('passes a decline through, and refuses an answer that breaks the form (%s)', async (era) => {
    const connect = (answer: Answer) => (era === 'modern' ? modernClient(answer) : legacyClient(answer));
    const declined = await connect({ action: 'decline' });
    expect((await declined.client.callTool({ name: 'book', arguments: {} })).structuredContent).toEqual({ message: 'Booking declined.' });
    await declined.client.close();
    const wrong = await connect({ action: 'accept', content: { guests: 40, seating: 'roof' } });
    const result = await wrong.client.callTool({ name: 'book', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/invalid_elicitation_answer: The answer to .*How many guests, and where\?.* does not fit/);
    await wrong.client.close();
  });

  it('samples the client model in both eras', async () => {
    for (const { client, asked } of [await modernClient({ action: 'cancel' }), await legacyClient({ action: 'cancel' })]) {
      expect((await client.callTool({ name: 'name', arguments: {} })).structuredContent).toEqual({ message: 'The model says: Chez Nous.' });
      expect(asked).toEqual([expect.objectContaining({ maxTokens: 20 })]);
      await client.close();
    }
  });

  it('tells a client without the capability that the tool needs it, instead of hanging', async () => {
    const { client } = await legacyClient(undefined);
    const result = await client.callTool({ name: 'book', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('elicitation_unavailable: This tool needs to ask the user a question (elicitation), which this client does not support') }] });
    await client.close();
  });
});

describe('elicitation forms, declared on the tool', () => {
  class Address {
    @Field()
    street!: string;
  }

  class NestedForm {
    @Field(() => Address)
    address!: Address;

    @Field(() => String, { nullable: true })
    @IsOptional()
    note?: string | null;
  }

  it('are checked at startup: a form that is not flat stops the server, naming each field and the fix', () => {
    @Toolset({ name: 'forms', description: 'Forms.' })
    class FormsToolset {
      @Tool({ description: 'Asks for an address.', returns: BookingResult, elicits: [NestedForm] })
      ask(): BookingResult {
        return { message: 'never called' };
      }
    }
    const build = () => buildServer({ name: 'forms', version: '1', toolsets: [FormsToolset], logger: recordingLogger().logger });
    expect(build).toThrow(ContractError);
    expect(build).toThrow("[toolset 'forms' > tool 'ask' > NestedForm.address] 'address' of the elicitation form 'NestedForm' is an object; a form has only string, number, integer, boolean and enum fields, and arrays of string enum values (multi-selects). Fix: flatten it into such fields");
    expect(build).toThrow("'note' of the elicitation form 'NestedForm' is nullable");
  });

  it('are the only ones a call may ask for: another fails the call, saying to declare it', async () => {
    @Toolset({ name: 'forgetful', description: 'Forgets to declare.' })
    class ForgetfulToolset {
      constructor(private readonly context: RequestContext) {}

      @Tool({ description: 'Asks for a form it does not list.', returns: BookingResult, elicits: [TableForm] })
      async ask(): Promise<BookingResult> {
        await this.context.elicit('Remind you?', ReminderForm);
        return { message: 'asked' };
      }
    }
    const { logger, lines } = recordingLogger();
    const client = await connectClient(buildServer({ name: 'forgetful', version: '1', toolsets: [ForgetfulToolset], logger }));
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: "The tool 'ask' of toolset 'forgetful' asked the user to fill 'ReminderForm', which it does not declare. Add it to the tool's options, @Tool({ ..., elicits: [ReminderForm] }), so the startup gate checks it." }],
    });
    expect(lines.some((line) => line.message === 'tool asked for an elicitation form it does not declare')).toBe(true);
    await client.close();
  });
});
