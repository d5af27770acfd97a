import type { CallToolResult } from '@modelcontextprotocol/server';
import { innerAnswer } from '../answers/inner-answer';
import { identifier } from '../declarations/catalog-declarations';
import type { JsonSchema } from '../declarations/schema-type';

/** What `typedApi` needs of an MCP client: the SDK's `Client` (either line) has both. */
export interface ToolCaller {
  listTools(): Promise<{ tools: readonly { name: string; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown; content?: unknown }>;
}

/** What a refused call throws outside the sandbox, as inside: its name is the error's kind, its message the server's words. */
export class ToolCallError extends Error {
  constructor(
    name: string,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = name;
  }
}

/**
 * A typed client over a connected MCP client: `api.<toolset>.<tool>(args)` calls the tool and
 * resolves to its `structuredContent`, as `Api` (from `api.d.ts`, written by toolsets-api-types)
 * says. Answers are read as a program's inner calls are (`innerAnswer`): a tool's declared
 * `ToolError` is a value, as its type says; any other `isError` answer throws a `ToolCallError`. Tool names are unique on a server: the toolset in the path is for the
 * reader and the types, and the call goes to the tool of that name.
 */
export async function typedApi<Api>(client: ToolCaller): Promise<Api> {
  const { tools } = await client.listTools();
  const byIdentifier = new Map(tools.map((tool) => [identifier(tool.name), tool]));
  const call = async (fn: string, args: unknown) => {
    const tool = byIdentifier.get(fn);
    if (!tool) throw new ToolCallError('UnknownTool', `The server lists no tool '${fn}': regenerate api.d.ts (toolsets-api-types) against the server you call.`);
    const result = await client.callTool({ name: tool.name, arguments: (args ?? {}) as Record<string, unknown> });
    // The same reading of an answer as a program's inner call gets: a value, or a refusal thrown.
    const answer = innerAnswer(result as CallToolResult, tool.outputSchema as JsonSchema | undefined);
    if ('error' in answer) throw new ToolCallError(answer.error.name, answer.error.message, answer.error.data);
    return answer.value;
  };
  const namespace = new Proxy({}, { get: (_target, fn) => (typeof fn === 'string' ? (args: unknown) => call(fn, args) : undefined) });
  return new Proxy({}, { get: (_target, name) => (typeof name === 'string' && name !== 'then' ? namespace : undefined) }) as Api;
}
