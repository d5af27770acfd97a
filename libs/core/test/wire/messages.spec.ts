import 'reflect-metadata';
import { IsIn } from 'class-validator';
import { Field, Result, Tool, ToolResult, Toolset, buildServer } from '../../src';
import { connectClient, recordingLogger } from '../support/connect';

class PaintArgs {
  @Field()
  @IsIn(['red', 'blue'])
  color!: string;
}

@Result({ description: 'Painted.' })
class PaintResult extends ToolResult {}

@Toolset({ description: 'Paint.' })
class PaintToolset {
  @Tool({ description: 'Paint.', args: PaintArgs, returns: PaintResult })
  paint(args: PaintArgs): PaintResult {
    return { message: `Painted ${args.color}.` };
  }

  @Tool({ description: 'Forgets the message.', returns: PaintResult })
  forget(): PaintResult {
    return {} as PaintResult;
  }
}

async function call(name: string, args: Record<string, unknown>) {
  const log = recordingLogger();
  const client = await connectClient(buildServer({ name: 'paint', version: '1', toolsets: [PaintToolset], logger: log.logger }));
  try {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as { text: string }[])[0].text, log: log.lines };
  } finally {
    await client.close();
  }
}

describe('messages a model and an author read', () => {
  it('lists the allowed values of an enum argument', async () => {
    expect((await call('paint', { color: 'green' })).text).toBe(`Invalid arguments for tool 'paint':\n- 'color' must be one of: "red", "blue".`);
  });

  it('says an unknown argument in one line', async () => {
    expect((await call('paint', { color: 'red', extra: 1 })).text).toBe(
      "Invalid arguments for tool 'paint':\n- 'extra' is not an argument of this tool (it takes: color).",
    );
  });

  it("logs a non-conforming result as \"must have required property 'message'\"", async () => {
    const { log } = await call('forget', {});
    expect(log.find((line) => line.level === 'error')?.fields?.['errors']).toEqual(["/ must have required property 'message'"]);
  });
});
