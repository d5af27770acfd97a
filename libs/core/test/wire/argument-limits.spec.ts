import 'reflect-metadata';
import { Field, Result, Tool, ToolResult, Toolset, buildServer, type ArgumentLimits } from '../../src';
import { connectClient } from '../support/connect';

class Node {
  @Field()
  name!: string;
}

class TreeArgs {
  @Field(() => [String])
  tags!: string[];

  @Field(() => [Node])
  nodes!: Node[];
}

@Result({ description: 'How many tags.' })
class CountResult extends ToolResult {}

@Toolset({ name: 'limits', description: 'Argument limits.' })
class LimitsToolset {
  @Tool({ description: 'Counts tags.', args: TreeArgs, returns: CountResult })
  count(args: TreeArgs): CountResult {
    return { message: `${args.tags.length} tags` };
  }
}

const LIMITS: ArgumentLimits = { maxItems: 100, maxStringLength: 50, maxDepth: 4 };

async function call(args: unknown) {
  const server = buildServer({ name: 'limits', version: '1', toolsets: [LimitsToolset] });
  const client = await connectClient(server, { argumentLimits: LIMITS });
  try {
    const result = await client.callTool({ name: 'count', arguments: args as Record<string, unknown> });
    return { isError: result.isError, text: (result.content as { text: string }[])[0].text };
  } finally {
    await client.close();
  }
}

describe('argument limits, checked before schema validation', () => {
  it('accepts arguments within every limit', async () => {
    expect(await call({ tags: Array(99).fill('t'), nodes: [{ name: 'x'.repeat(50) }] })).toEqual({ isError: undefined, text: '{"message":"99 tags"}' });
  });

  it('refuses more array items than allowed, naming the limit', async () => {
    const result = await call({ tags: Array(80).fill('t'), nodes: Array(21).fill({ name: 'n' }) });
    expect(result.isError).toBe(true);
    expect(result.text).toBe("Invalid arguments for tool 'count':\n- The arguments hold more than 100 array items in all, the most this server accepts.");
  });

  it('refuses a string longer than allowed, naming where it is', async () => {
    const result = await call({ tags: [], nodes: [{ name: 'x'.repeat(51) }] });
    expect(result.text).toBe("Invalid arguments for tool 'count':\n- 'nodes.0.name' is 51 characters long; this server accepts at most 50 per string.");
  });

  it('refuses nesting deeper than allowed', async () => {
    const result = await call({ tags: [], nodes: [[[[['deep']]]]] });
    expect(result.text).toBe("Invalid arguments for tool 'count':\n- 'nodes.0.0.0' nests deeper than 4 levels, the most this server accepts.");
  });

  it('refuses an object with more keys than the item limit, naming the first 10 and counting the rest', async () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    const top = await call({ tags: [], nodes: [], ...keys(150) });
    expect(top.text).toBe(
      "Invalid arguments for tool 'count':\n- The arguments have 152 keys; this server accepts at most 100 in one object: 'tags', 'nodes', 'k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7' and 142 more.",
    );
    const nested = await call({ tags: [], nodes: [{ name: 'a', ...keys(100) }] });
    expect(nested.text).toContain("- 'nodes.0' has 101 keys; this server accepts at most 100 in one object: 'name', 'k0',");
  });

  it('names at most 10 undeclared keys, with a count of the rest, beside the declared arguments\' own errors', async () => {
    const undeclared = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x${i}`, i]));
    const result = await call({ tags: 'not a list', ...undeclared });
    expect(result.text).toBe(
      "Invalid arguments for tool 'count':\n" +
        "- 'x0', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9' and 40 more are not arguments of this tool (it takes: tags, nodes).\n" +
        "- 'nodes' is required.\n" +
        "- 'tags' must be array.",
    );
  });

  it('names undeclared keys of a nested object, however many there are', async () => {
    const result = await call({ tags: [], nodes: [{ name: 'a', ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`y${i}`, i])) }] });
    expect(result.text).toContain("- 'nodes.0' has no property 'y0'.");
  });

  // '__proto__' never reaches a tool: the SDK's parse drops it in memory; the HTTP and stdio transports refuse it (e2e).
  it.each(['constructor', 'prototype'])('refuses an undeclared %s key, at the top or nested', async (key) => {
    const top = await call(JSON.parse(`{"tags":[],"nodes":[],"${key}":{"polluted":true}}`));
    expect(top.text).toBe(`Invalid arguments for tool 'count':\n- '${key}' is not an argument of this tool: '${key}' is never accepted as a key.`);
    const nested = await call(JSON.parse(`{"tags":[],"nodes":[{"name":"a","${key}":{"polluted":true}}]}`));
    expect(nested.text).toContain(`'nodes.0.${key}' is not an argument of this tool`);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
