import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { container } from 'tsyringe';
import { IsOptional } from 'class-validator';
import { buildServer, Field, Tool, ToolResult, Toolset } from '../../src';
import { connectClient, recordingLogger } from '../support/connect';

class EchoResult extends ToolResult {
  @Field()
  instance!: boolean;
}

class FlatArgs {
  @Field()
  @IsOptional()
  name?: string = 'world';

  describe(): string {
    return `name=${this.name}`;
  }
}

class TrimmedArgs {
  @Field()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  name!: string;
}

class Shelf {
  @Field()
  label!: string;
}

class NestedArgs {
  @Field(() => [Shelf])
  shelves!: Shelf[];

  @Field()
  since!: Date;
}

@Toolset({ name: 'args' })
class ArgsToolset {
  @Tool({ description: 'Flat args.', args: FlatArgs, returns: EchoResult })
  flat(args: FlatArgs): EchoResult {
    return { message: args.describe(), instance: args instanceof FlatArgs };
  }

  @Tool({ description: 'Nested args.', args: NestedArgs, returns: EchoResult })
  nested(args: NestedArgs): EchoResult {
    const real = args.shelves.every((shelf) => shelf instanceof Shelf) && args.since instanceof Date;
    return { message: `${args.shelves.map((s) => s.label).join(',')} since ${args.since.getUTCFullYear()}`, instance: real };
  }

  @Tool({ description: 'Args with a class-transformer @Transform.', args: TrimmedArgs, returns: EchoResult })
  trimmed(args: TrimmedArgs): EchoResult {
    return { message: `[${args.name}]`, instance: args instanceof TrimmedArgs };
  }
}

describe('arguments', () => {
  const server = () => buildServer({ name: 'args', version: '1', toolsets: [ArgsToolset], logger: recordingLogger().logger });

  it('arrive as an instance of a flat args class, with its initial values as defaults', async () => {
    const client = await connectClient(server());
    expect((await client.callTool({ name: 'flat', arguments: {} })).structuredContent).toEqual({ message: 'name=world', instance: true });
    expect((await client.callTool({ name: 'flat', arguments: { name: 'Ada' } })).structuredContent).toEqual({ message: 'name=Ada', instance: true });
    await client.close();
  });

  it('arrive with nested DTOs and dates as real instances, without adding @Type to the user\'s classes', async () => {
    const client = await connectClient(server());
    const result = await client.callTool({ name: 'nested', arguments: { shelves: [{ label: 'a' }, { label: 'b' }], since: '2026-01-31T00:00:00Z' } });
    await client.close();
    expect(result.structuredContent).toEqual({ message: 'a,b since 2026', instance: true });
    // class-transformer on its own still sees no type hints on NestedArgs: the framework changed nothing globally.
    const plain = plainToInstance(NestedArgs, { shelves: [{ label: 'a' }], since: '2026-01-31T00:00:00Z' });
    expect(plain.shelves[0]).not.toBeInstanceOf(Shelf);
    expect(plain.since).not.toBeInstanceOf(Date);
  });

  it("go through the user's own class-transformer decorators", async () => {
    const client = await connectClient(server());
    expect((await client.callTool({ name: 'trimmed', arguments: { name: '  Ada  ' } })).structuredContent).toEqual({
      message: '[Ada]',
      instance: true,
    });
    await client.close();
  });
});

describe('toolset instances', () => {
  it('are new for every call', async () => {
    const instances: object[] = [];
    @Toolset({ name: 'counting' })
    class CountingToolset {
      @Tool({ description: 'Records the instance serving the call.', returns: EchoResult })
      record(): EchoResult {
        instances.push(this);
        return { message: 'recorded', instance: true };
      }
    }
    const client = await connectClient(buildServer({ name: 'args', version: '1', toolsets: [CountingToolset], logger: recordingLogger().logger }));
    await client.callTool({ name: 'record', arguments: {} });
    await client.callTool({ name: 'record', arguments: {} });
    await client.close();
    expect(instances).toHaveLength(2);
    expect(instances[0]).toBeInstanceOf(CountingToolset);
    expect(instances[0]).not.toBe(instances[1]);
  });

  it('come from the container even when the app registers the toolset class after buildServer', async () => {
    const app = container.createChildContainer();
    const server = buildServer({ name: 'args', version: '1', toolsets: [ArgsToolset], container: app, logger: recordingLogger().logger });
    let made = 0;
    app.register(ArgsToolset, { useFactory: () => (made++, new ArgsToolset()) });
    const client = await connectClient(server);
    await client.callTool({ name: 'flat', arguments: {} });
    await client.close();
    expect(made).toBe(1);
  });

  it('come from the container when the app registered the toolset class there', async () => {
    const app = container.createChildContainer();
    let made = 0;
    app.register(ArgsToolset, { useFactory: () => (made++, new ArgsToolset()) });
    const client = await connectClient(buildServer({ name: 'args', version: '1', toolsets: [ArgsToolset], container: app, logger: recordingLogger().logger }));
    await client.callTool({ name: 'flat', arguments: {} });
    await client.callTool({ name: 'flat', arguments: {} });
    expect(made).toBe(2);
    await client.close();
  });
});
