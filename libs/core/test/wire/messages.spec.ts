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

  @Tool({ description: 'Misspells a key.', returns: PaintResult })
  misspell(): PaintResult {
    return { message: 'Painted.', colour: 'red', layers: [{ coat: 1 }] } as PaintResult;
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

class Counted extends ToolResult {}

@Toolset({ name: 'counted' })
class CountedToolset {
  static calls = 0;

  @Tool({ description: 'Returns a stray key on some calls.', returns: Counted })
  count(): Counted {
    const n = ++CountedToolset.calls;
    return { message: 'Counted.', ...([100, 110, 128].includes(n) && { [`at${n}`]: true }) } as Counted;
  }
}

describe('keys a result does not declare', () => {
  const server = (warnDroppedKeys?: boolean) => {
    const log = recordingLogger();
    return { log, server: buildServer({ name: 'paint', version: '1', toolsets: [PaintToolset], logger: log.logger, warnDroppedKeys }) };
  };

  it('are dropped, and in development logged once per tool and key, saying how to fix it', async () => {
    const { log, server: built } = server(true);
    const client = await connectClient(built);
    for (let i = 0; i < 3; i++) expect((await client.callTool({ name: 'misspell', arguments: {} })).structuredContent).toEqual({ message: 'Painted.' });
    await client.close();
    const warnings = log.lines.filter((line) => line.level === 'warn');
    expect(warnings.map((w) => w.fields?.['key'])).toEqual(['colour', 'layers']);
    expect(warnings[0]).toMatchObject({
      message: 'tool returned a key its result class does not declare; it was dropped',
      fields: { tool: 'misspell', result: 'PaintResult', fix: expect.stringContaining('declare it with @Field() on PaintResult') },
    });
  });

  it("are looked for in each of a tool's first 100 results, then in one in 32", async () => {
    const log = recordingLogger();
    const client = await connectClient(buildServer({ name: 'counted', version: '1', toolsets: [CountedToolset], logger: log.logger, warnDroppedKeys: true }));
    for (let i = 0; i < 130; i++) await client.callTool({ name: 'count', arguments: {} });
    await client.close();
    expect(log.lines.filter((line) => line.level === 'warn').map((w) => w.fields?.['key'])).toEqual(['at100', 'at128']);
  });

  it('are dropped silently under NODE_ENV=production, where the warning is off by default', async () => {
    const before = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'production';
    try {
      const { log, server: built } = server();
      const client = await connectClient(built);
      expect((await client.callTool({ name: 'misspell', arguments: {} })).structuredContent).toEqual({ message: 'Painted.' });
      await client.close();
      expect(log.lines.filter((line) => line.level === 'warn')).toEqual([]);
    } finally {
      process.env['NODE_ENV'] = before;
    }
  });

  it('are dropped silently when the warning is turned off', async () => {
    const { log, server: built } = server(false);
    const client = await connectClient(built);
    expect((await client.callTool({ name: 'misspell', arguments: {} })).structuredContent).toEqual({ message: 'Painted.' });
    await client.close();
    expect(log.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});
