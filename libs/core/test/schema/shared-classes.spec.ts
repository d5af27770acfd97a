import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsOptional } from 'class-validator';
import { buildServer, Field, Tool, ToolError, ToolResult, Toolset } from '../../src';
import type { Loose } from '../support/loose';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';


class Address {
  @Field({ description: 'The street and number.' })
  street!: string;

  @Field()
  city!: string;
}

class Party {
  @Field()
  name!: string;

  @Field(() => Address)
  address!: Address;
}

class Shipment extends ToolResult {
  @Field(() => Party)
  sender!: Party;

  @Field(() => Party)
  recipient!: Party;

  @Field(() => [Address], { description: 'Where it stopped on the way.' })
  stops!: Address[];

  @Field(() => Address, { nullable: true })
  @IsOptional()
  returnTo?: Address | null;
}

class Note {
  @Field()
  text!: string;
}

class Single extends ToolResult {
  @Field(() => Note)
  note!: Note;
}

class ShipArgs {
  @Field(() => Address)
  from!: Address;

  @Field(() => Address)
  to!: Address;
}

@Toolset({ name: 'shipping' })
class ShippingToolset {
  static answer: unknown;

  @Tool({ description: 'Ships a parcel.', args: ShipArgs, returns: [Shipment, ToolError] })
  ship(args: ShipArgs): Shipment {
    return (ShippingToolset.answer ?? {
      message: 'Shipped.',
      sender: { name: 'Ada', address: args.from },
      recipient: { name: 'Bob', address: args.to },
      stops: [args.from, args.to],
      returnTo: null,
    }) as Shipment;
  }

  @Tool({ description: 'Returns a note.', returns: Single })
  note(): Single {
    return { message: 'A note.', note: { text: 'hi' } };
  }
}

const server = () => buildServer({ name: 'shipping', version: '1', toolsets: [ShippingToolset], logger: recordingLogger().logger });
const from = { street: '1 Main St', city: 'Oslo' };
const to = { street: '2 High St', city: 'Bergen' };

describe('classes a schema reaches from more than one place', () => {
  afterEach(() => (ShippingToolset.answer = undefined));

  it('are written once under $defs and referred to with local $refs, in input and output schemas', async () => {
    const client = await connectClient(server());
    const { tools } = await client.listTools();
    await client.close();
    const ship = tools.find((tool) => tool.name === 'ship')!;
    const output = ship.outputSchema as Loose;
    expect(Object.keys(output['$defs'])).toEqual(['Party', 'Address']);
    expect(output['$defs']['Address']).toEqual({
      type: 'object',
      title: 'Address',
      properties: { street: { type: 'string', description: 'The street and number.' }, city: { type: 'string' } },
      required: ['street', 'city'],
    });
    const shipment = output['anyOf'][0];
    expect(shipment.properties.sender).toEqual({ $ref: '#/$defs/Party' });
    expect(shipment.properties.stops).toEqual({ type: 'array', items: { $ref: '#/$defs/Address' }, description: 'Where it stopped on the way.' });
    expect(shipment.properties.returnTo).toEqual({ anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] });
    expect(output['$defs']['Party'].properties.address).toEqual({ $ref: '#/$defs/Address' });
    // Each class's schema appears once: no arm carries $defs of its own.
    expect(JSON.stringify(output).match(/"title":"Address"/g)).toHaveLength(1);
    expect(shipment['$defs']).toBeUndefined();

    const input = ship.inputSchema as Loose;
    expect(input['properties']).toEqual({ from: { $ref: '#/$defs/Address' }, to: { $ref: '#/$defs/Address' } });
    expect(input['$defs']['Address']).toMatchObject({ additionalProperties: false });
  });

  it('stay inline when used once', async () => {
    const client = await connectClient(server());
    const { tools } = await client.listTools();
    await client.close();
    const note = tools.find((tool) => tool.name === 'note')!.outputSchema as Loose;
    expect(note['$defs']).toBeUndefined();
    expect(note['properties'].note).toMatchObject({ type: 'object', title: 'Note' });
  });

  it('compile under strict Ajv 2020, which accepts a right answer and refuses a wrong one at the shared class', async () => {
    const client = await connectClient(server());
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'ship', arguments: { from, to } });
    await client.close();
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const ship = tools.find((tool) => tool.name === 'ship')!;
    const validate = ajv.compile(ship.outputSchema as object);
    expect(validate(result.structuredContent)).toBe(true);
    expect(validate({ ...(result.structuredContent as object), recipient: { name: 'Bob', address: { street: 2 } } })).toBe(false);
    expect(ajv.compile(ship.inputSchema as object)({ from, to: { street: 'x', city: 'y', zip: '1' } })).toBe(false);
  });

  it('are validated through the $ref on the server: arguments and results that break a shared class are refused', async () => {
    const client = await connectClient(server());
    const badArgs = await client.callTool({ name: 'ship', arguments: { from, to: { street: 'x' } } });
    ShippingToolset.answer = { message: 'Shipped.', sender: { name: 'Ada', address: from }, recipient: { name: 'Bob', address: { street: 7, city: 'x' } }, stops: [] };
    const badResult = await client.callTool({ name: 'ship', arguments: { from, to } });
    await client.close();
    expect(badArgs.isError).toBe(true);
    expect(JSON.stringify(badArgs.content)).toContain("'to': 'city' is required");
    expect(badResult.isError).toBe(true);
    // A result that breaks its own schema is the server's fault: an internal error, nothing of the value sent.
    expect(JSON.stringify(badResult.content)).toMatch(/correlation id/);
    expect(JSON.stringify(badResult)).not.toContain('"street":7');
  });

  it('are accepted by the 2025-era client, which checks structuredContent against the advertised schema', async () => {
    const client = await connectLegacyClient(server());
    await client.listTools();
    const result = await client.callTool({ name: 'ship', arguments: { from, to } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ recipient: { address: to }, stops: [from, to] });
  });
});
