import 'reflect-metadata';
import { Field, RequestContext, Tool, ToolResult, Toolset, buildServer } from '@toolsets/core';
import { connectToolset } from '../src/connect-toolset';
import { textOf } from '../src/result-text';

class EchoResult extends ToolResult {
  @Field()
  era!: string;
}

@Toolset({ name: 'echo', credentialHeaders: ['x-key'] })
class EchoToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Echo the caller key (its last letter: the whole key would be redacted) and era.', returns: EchoResult })
  echo(): EchoResult {
    return { message: `key ends ${this.context.credential('x-key').slice(-1)}`, era: this.context.era };
  }
}

describe('connectToolset', () => {
  it.each(['modern', 'legacy'] as const)('connects the %s-era SDK client with the given headers', async (era) => {
    const toolset = await connectToolset(EchoToolset, { headers: { 'X-Key': 'k1' }, era });
    expect((await toolset.listTools()).map((tool) => tool.name)).toEqual(['echo']);
    const result = await toolset.call('echo');
    expect(result.structuredContent).toEqual({ message: 'key ends 1', era });
    expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    await toolset.close();
  });

  it('accepts an already built server', async () => {
    const server = buildServer({ name: 'prebuilt', version: '1', toolsets: [EchoToolset] });
    const toolset = await connectToolset(server);
    const result = await toolset.call('echo');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`x-key`');
    await toolset.close();
  });
});
