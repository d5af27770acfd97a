import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { IsOptional, MaxLength } from 'class-validator';
import { buildServer, Field, Tool, ToolError, ToolResult, Toolset, unionOf } from '../../src';
import type { Loose } from '../support/loose';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';


class TreeNode {
  @Field()
  @MaxLength(10)
  name!: string;

  @Field(() => [TreeNode])
  children!: TreeNode[];
}

// Thread first: an array's design:type is Array, while a property typed by a class declared later
// would read that class before it exists (TDZ); a `Reply & object` type would avoid it as well.
class Thread {
  @Field()
  title!: string;

  @Field(() => [Reply])
  replies!: Reply[];
}

class Reply {
  @Field()
  text!: string;

  @Field(() => Thread)
  @IsOptional()
  thread?: Thread;
}

class TreeResult extends ToolResult {
  @Field(() => TreeNode)
  root!: TreeNode;

  // An id or the expanded objects, as Stripe's answers have: a union whose arm is a list of a recursive class.
  @Field(() => unionOf(Number, [TreeNode]))
  @IsOptional()
  expandable?: number | TreeNode[];

  @Field(() => Thread)
  @IsOptional()
  thread?: Thread;
}

@Toolset({ name: 'trees' })
class TreeToolset {
  static answer: unknown;

  @Tool({ description: 'Echoes a tree.', args: TreeNode, returns: [TreeResult, ToolError] })
  echo(args: TreeNode): TreeResult {
    return (TreeToolset.answer ?? { message: 'A tree.', root: { ...args, extra: 'dropped' } }) as TreeResult;
  }
}

const deep = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
const server = () => buildServer({ name: 'trees', version: '1', toolsets: [TreeToolset], logger: recordingLogger().logger });

describe('recursive DTO classes', () => {
  afterEach(() => (TreeToolset.answer = undefined));

  it('pass the gate and stay recursive: the class is under $defs and refers to itself with a $ref', async () => {
    const client = await connectClient(server());
    const { tools } = await client.listTools();
    await client.close();
    const output = tools[0].outputSchema as unknown as Loose;
    expect(output['$defs']['TreeNode']['properties']['children']).toEqual({ type: 'array', items: { $ref: '#/$defs/TreeNode' } });
    // Mutual recursion: Thread -> Reply -> Thread; one of them is shared and the cycle closes through it.
    expect(JSON.stringify(output['$defs'])).toContain('"$ref":"#/$defs/Thread"');
    const input = tools[0].inputSchema as unknown as Loose;
    expect(input['properties']['children']).toEqual({ type: 'array', items: { $ref: '#/$defs/TreeNode' } });
    expect(input['$defs']['TreeNode']['additionalProperties']).toBe(false);
  });

  it('validates, projects and checks rules at every depth, through both clients', async () => {
    for (const connect of [connectClient, connectLegacyClient]) {
      const client = await connect(server());
      await client.listTools();
      const echoed = await client.callTool({ name: 'echo', arguments: deep });
      const tooLong = await client.callTool({ name: 'echo', arguments: { name: 'a', children: [{ name: 'b', children: [{ name: 'far too long a name', children: [] }] }] } });
      const undeclared = await client.callTool({ name: 'echo', arguments: { name: 'a', children: [{ name: 'b', children: [], extra: 1 }] } });
      await client.close();
      // Undeclared keys are dropped at the top and would be at every depth: the answer is the tree, exactly.
      expect(echoed.structuredContent).toEqual({ message: 'A tree.', root: deep });
      expect(tooLong.isError).toBe(true);
      expect(JSON.stringify(tooLong.content)).toContain('children');
      expect(undeclared.isError).toBe(true);
    }
  });

  it('refuses a result that breaks the schema three levels down', async () => {
    TreeToolset.answer = { message: 'x', root: { name: 'a', children: [{ name: 'b', children: [{ name: 7, children: [] }] }] } };
    const client = await connectClient(server());
    const result = await client.callTool({ name: 'echo', arguments: deep });
    await client.close();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/correlation id/);
  });

  it('compile under strict Ajv 2020', async () => {
    const client = await connectClient(server());
    const { tools } = await client.listTools();
    await client.close();
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const validate = ajv.compile(tools[0].outputSchema as object);
    expect(validate({ message: 'x', root: deep, thread: { title: 't', replies: [{ text: 'r', thread: { title: 'u', replies: [] } }] } })).toBe(true);
    expect(validate({ message: 'x', root: { name: 'a', children: [{ name: 'b', children: [{ name: 7, children: [] }] }] } })).toBe(false);
  });

  it('project a union whose arm is a list of a recursive class (an id or the expanded objects)', async () => {
    const client = await connectClient(server());
    TreeToolset.answer = { message: 'x', root: deep, expandable: [{ ...deep, extra: 'dropped' }] };
    const expanded = await client.callTool({ name: 'echo', arguments: deep });
    TreeToolset.answer = { message: 'x', root: deep, expandable: 7 };
    const id = await client.callTool({ name: 'echo', arguments: deep });
    await client.close();
    expect(expanded.structuredContent).toEqual({ message: 'x', root: deep, expandable: [deep] });
    expect(id.structuredContent).toEqual({ message: 'x', root: deep, expandable: 7 });
  });
});
