import 'reflect-metadata';
import { McpServer, Server } from '@modelcontextprotocol/server';
import { buildServer, Field, Tool, ToolResult, Toolset, type ServerDefinition } from '@toolsets/core';
import { z } from 'zod';

/** The same trivial tool three ways: one string argument, a one-key result. */
export type ServerFactory = () => Server | McpServer;

const DESCRIPTION = 'Greet someone by name.';

class HelloArgs {
  @Field()
  name!: string;
}

class HelloResult extends ToolResult {}

@Toolset({ name: 'bench-hello' })
class BenchHelloToolset {
  @Tool({ description: DESCRIPTION, args: HelloArgs, returns: HelloResult })
  hello(args: HelloArgs): HelloResult {
    return { message: `Hello, ${args.name}!` };
  }
}

export function toolsetsHelloServer(): ServerDefinition {
  return buildServer({ name: 'bench', version: '1.0.0', toolsets: [BenchHelloToolset] });
}

/** @toolsets/core: reflected schemas, validated arguments and results, request-scoped DI. */
export function toolsetsHello(): ServerFactory {
  const server = toolsetsHelloServer();
  return () => server.createServer();
}

/** The floor: the SDK's low-level Server, a hand-written JSON Schema, no validation at all. */
export function bareHello(): ServerFactory {
  const tools = [
    {
      name: 'hello',
      description: DESCRIPTION,
      inputSchema: { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
      outputSchema: { type: 'object' as const, properties: { message: { type: 'string' } }, required: ['message'] },
    },
  ];
  return () => {
    const server = new Server({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools }));
    server.setRequestHandler('tools/call', (request) => {
      const output = { message: `Hello, ${String(request.params.arguments?.['name'])}!` };
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    });
    return server;
  };
}

/** What a user writes without this framework: McpServer.registerTool with Zod input and output. */
export function zodHello(): ServerFactory {
  const input = z.object({ name: z.string() });
  const output = z.object({ message: z.string() });
  return () => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.registerTool('hello', { description: DESCRIPTION, inputSchema: input, outputSchema: output }, async ({ name }) => {
      const result = { message: `Hello, ${name}!` };
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    });
    return server;
  };
}
