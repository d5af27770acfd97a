import 'reflect-metadata';
import { Transform } from 'class-transformer';
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

const received: unknown[] = [];

@Toolset({ name: 'args' })
class ArgsToolset {
  @Tool({ description: 'Flat args.', args: FlatArgs, returns: EchoResult })
  flat(args: FlatArgs): EchoResult {
    received.push(args);
    return { message: args.describe(), instance: args instanceof FlatArgs };
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
    const client = await connectClient(buildServer({ name: 'args', version: '1', toolsets: [ArgsToolset], logger: recordingLogger().logger }));
    received.splice(0);
    await client.callTool({ name: 'flat', arguments: {} });
    await client.callTool({ name: 'flat', arguments: {} });
    expect(received[0]).not.toBe(received[1]);
    await client.close();
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
