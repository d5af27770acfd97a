import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsOptional } from 'class-validator';
import { buildServer, Field, Tool, ToolError, ToolResult, Toolset } from '../../src';
import type { Loose } from '../support/loose';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';


class Leaf {
  @Field({ description: 'The leaf text, deep down.' })
  text!: string;

  @Field()
  weight!: number;
}

class Branch {
  @Field()
  label!: string;

  @Field(() => [Leaf])
  leaves!: Leaf[];

  @Field(() => Leaf)
  @IsOptional()
  main?: Leaf;
}

class Trunk {
  @Field()
  name!: string;

  @Field(() => [Branch])
  branches!: Branch[];
}

class TreeResult extends ToolResult {
  @Field(() => Trunk)
  trunk!: Trunk;

  @Field()
  height!: number;
}

const answer = (weight: unknown) => ({
  message: 'A tree.',
  height: 3,
  trunk: { name: 'oak', branches: [{ label: 'b1', leaves: [{ text: 'l1', weight }], main: { text: 'm', weight: 1 } }] },
});

function treeToolset(schemaBudget: number | undefined, weight: () => unknown) {
  @Toolset({ name: 'trees', schemaBudget })
  class TreeToolset {
    @Tool({ description: 'Describes a tree.', returns: [TreeResult, ToolError] })
    tree(): TreeResult {
      return answer(weight()) as TreeResult;
    }
  }
  return TreeToolset;
}

async function advertised(schemaBudget: number | undefined): Promise<Loose> {
  const client = await connectClient(buildServer({ name: 't', version: '1', toolsets: [treeToolset(schemaBudget, () => 1)], logger: recordingLogger().logger }));
  const { tools } = await client.listTools();
  await client.close();
  return tools[0].outputSchema as unknown as Loose;
}

describe('a toolset schema budget (@Toolset({ schemaBudget }))', () => {
  it('leaves a schema within the budget as it is', async () => {
    expect(await advertised(1_000_000)).toEqual(await advertised(undefined));
  });

  it('cuts the deepest levels of an output schema past its budget to open values that say what was cut', async () => {
    const full = await advertised(undefined);
    const schema = await advertised(1_250);
    // The whole entry (name, description, both schemas) is over 1,250 bytes uncut; the output gives way.
    expect(JSON.stringify(schema).length).toBeLessThan(JSON.stringify(full).length);
    expect(JSON.stringify(schema).length).toBeLessThanOrEqual(1_250);
    const trunk = schema['anyOf'][0]['properties']['trunk'];
    // The top keeps its shape; the branches below are open values that say what was cut and why.
    expect(trunk['properties']['name']).toEqual({ type: 'string' });
    const branches = trunk['properties']['branches'];
    expect(branches['type']).toBe('array');
    const cut = JSON.stringify(branches);
    expect(cut).toContain("cut to fit this tool's 1250-byte schema budget; the server validates it in full)");
    expect(cut).not.toContain('The leaf text, deep down.');
    expect(schema['anyOf'][0]['properties']['height']).toEqual({ type: 'number' });
  });

  it('still compiles under strict Ajv 2020 and accepts what the server sends', async () => {
    const schema = await advertised(1_250);
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    expect(ajv.compile(schema as object)(answer(1))).toBe(true);
    const client = await connectLegacyClient(buildServer({ name: 't', version: '1', toolsets: [treeToolset(1_250, () => 1)], logger: recordingLogger().logger }));
    await client.listTools();
    const result = await client.callTool({ name: 'tree', arguments: {} });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(answer(1));
  });

  it('does not loosen the server: a result that breaks a cut part of the schema is still refused', async () => {
    const client = await connectClient(buildServer({ name: 't', version: '1', toolsets: [treeToolset(1_250, () => 'heavy')], logger: recordingLogger().logger }));
    const result = await client.callTool({ name: 'tree', arguments: {} });
    await client.close();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('heavy');
  });

  it('never cuts an input schema: the output gives way down to an open object, and the entry stays within budget', async () => {
    @Toolset({ name: 'planting', schemaBudget: 1_200 })
    class PlantingToolset {
      @Tool({ description: 'Plants a tree.', args: Trunk, returns: [TreeResult, ToolError] })
      plant(args: Trunk): TreeResult {
        return { message: `Planted ${args.name}.`, height: 1, trunk: args };
      }
    }
    const logged = recordingLogger();
    const client = await connectClient(buildServer({ name: 't', version: '1', toolsets: [PlantingToolset], logger: logged.logger }));
    const { tools } = await client.listTools();
    const entry = tools[0];
    const trunk = { name: 'oak', branches: [{ label: 'b', leaves: [{ text: 'l', weight: 1 }] }] };
    const planted = await client.callTool({ name: 'plant', arguments: trunk });
    await client.close();
    expect(Buffer.byteLength(JSON.stringify(entry))).toBeLessThanOrEqual(1_200);
    // The advertised arguments are exactly the validated ones: every level down to a leaf's weight.
    const leaf = JSON.stringify(entry.inputSchema);
    expect(leaf).not.toContain('cut to fit');
    expect(leaf).toContain('"weight":{"type":"number"}');
    expect(JSON.stringify(entry.outputSchema)).toContain("cut to fit this tool's 1200-byte schema budget");
    expect(planted.isError).toBeFalsy();
    expect(logged.lines.map((line) => line.message).join('\n')).not.toContain('schemaBudget');
  });

  it('advertises an input that cannot fit whole, over budget, and says so at startup with the size to raise the budget to', async () => {
    @Toolset({ name: 'planting-tight', schemaBudget: 600 })
    class TightToolset {
      @Tool({ description: 'Plants a tree.', args: Trunk, returns: [TreeResult, ToolError] })
      plant(args: Trunk): TreeResult {
        return { message: `Planted ${args.name}.`, height: 1, trunk: args };
      }
    }
    const logged = recordingLogger();
    const client = await connectClient(buildServer({ name: 't', version: '1', toolsets: [TightToolset], logger: logged.logger }));
    const { tools } = await client.listTools();
    const refused = await client.callTool({ name: 'plant', arguments: { name: 'oak', branches: [{ label: 'b', leaves: [{ text: 'l', weight: 'heavy' }] }] } });
    await client.close();
    const bytes = Buffer.byteLength(JSON.stringify(tools[0]));
    expect(bytes).toBeGreaterThan(600);
    expect(JSON.stringify(tools[0].inputSchema)).not.toContain('cut to fit');
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('weight');
    const warning = logged.lines.find((line) => line.message.includes('schemaBudget'))?.message;
    expect(warning).toContain(`plant (${bytes} bytes, budget 600)`);
    expect(warning).toContain('input schemas are never cut');
  });

  it('shortens descriptions at a word when even the top level does not fit, so no entry is over its budget', async () => {
    const long = 'A long explanation of this argument, as API documents write them, that goes on and on about what the value means. '.repeat(3);
    class WideArgs {}
    for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']) Field(() => String, { description: `${name}: ${long}` })(WideArgs.prototype, name);
    @Toolset({ name: 'wide', schemaBudget: 1_500 })
    class WideToolset {
      @Tool({ description: 'Takes many arguments.', args: WideArgs, returns: TreeResult })
      wide(): TreeResult {
        return answer(1) as TreeResult;
      }
    }
    const client = await connectClient(buildServer({ name: 't', version: '1', toolsets: [WideToolset], logger: recordingLogger().logger }));
    const { tools } = await client.listTools();
    await client.close();
    // Exactly the entry tools/list sends, every key included.
    expect(Buffer.byteLength(JSON.stringify(tools[0]))).toBeLessThanOrEqual(1_500);
    const alpha = (tools[0].inputSchema.properties as Record<string, { description: string }>)['alpha'].description;
    expect(alpha).toMatch(/^alpha: A long explanation.*…$/);
    expect(Object.keys(tools[0].inputSchema.properties ?? {})).toHaveLength(6);
  });
});
