import 'reflect-metadata';
import { IsOptional } from 'class-validator';
import { McpServer, Server } from '@modelcontextprotocol/server';
import { buildServer, Field, Tool, ToolResult, Toolset } from '@toolsets/core';
import { z } from 'zod';
import type { ServerFactory } from './hello-contenders';

/**
 * A rich result: 50 nested objects in an array, each carrying undeclared extra keys, with its
 * optional keys absent. Every contender returns the same object.
 */
export function richPayload(query: string) {
  return {
    message: `Found 50 items for ${query}.`,
    total: 50,
    items: Array.from({ length: 50 }, (_, i) => ({
      id: `item-${i}`,
      name: `Item ${i}`,
      score: i / 50,
      tags: ['a', 'b'],
      internalCost: i * 3,
      debug: { shard: i % 4, cached: true },
    })),
    trace: { spans: 12, tookMs: 4 },
  };
}

const DESCRIPTION = 'Search items.';

class SearchArgs {
  @Field()
  query!: string;
}

class Item {
  @Field()
  id!: string;

  @Field()
  name!: string;

  @Field()
  score!: number;

  @Field(() => [String])
  tags!: string[];

  @Field()
  @IsOptional()
  note?: string;

  @Field()
  @IsOptional()
  owner?: string;
}

class SearchResult extends ToolResult {
  @Field()
  total!: number;

  @Field(() => [Item])
  items!: Item[];

  @Field()
  @IsOptional()
  nextCursor?: string;
}

@Toolset({ name: 'bench-rich' })
class BenchRichToolset {
  @Tool({ description: DESCRIPTION, args: SearchArgs, returns: SearchResult })
  search(args: SearchArgs): SearchResult {
    return richPayload(args.query);
  }
}

export function toolsetsRich(): ServerFactory {
  const server = buildServer({ name: 'bench', version: '1.0.0', toolsets: [BenchRichToolset] });
  return () => server.createServer();
}

export function bareRich(): ServerFactory {
  const item = {
    type: 'object',
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      score: { type: 'number' },
      tags: { type: 'array', items: { type: 'string' } },
      note: { type: 'string' },
      owner: { type: 'string' },
    },
    required: ['id', 'name', 'score', 'tags'],
  };
  const tools = [
    {
      name: 'search',
      description: DESCRIPTION,
      inputSchema: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
      outputSchema: {
        type: 'object' as const,
        properties: { message: { type: 'string' }, total: { type: 'number' }, items: { type: 'array', items: item }, nextCursor: { type: 'string' } },
        required: ['message', 'total', 'items'],
      },
    },
  ];
  return () => {
    const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools }));
    server.setRequestHandler('tools/call', (request) => {
      const output = richPayload(String(request.params.arguments?.['query']));
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    });
    return server;
  };
}

export function zodRich(): ServerFactory {
  const input = z.object({ query: z.string() });
  const output = z.object({
    message: z.string(),
    total: z.number(),
    items: z.array(
      z.object({ id: z.string(), name: z.string(), score: z.number(), tags: z.array(z.string()), note: z.string().optional(), owner: z.string().optional() }),
    ),
    nextCursor: z.string().optional(),
  });
  return () => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.registerTool('search', { description: DESCRIPTION, inputSchema: input, outputSchema: output }, async ({ query }) => {
      const result = richPayload(query);
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    });
    return server;
  };
}
