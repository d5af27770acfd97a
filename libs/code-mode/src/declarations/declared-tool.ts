import type { CompiledTool } from '@toolsets/core';
import type { DeclaredTool } from './catalog-declarations';
import type { JsonSchema } from './schema-type';

/**
 * A catalog tool as programs see it, for the server's declarations and `toolsets-api-types` alike:
 * its arguments as advertised (never cut), its results in full (the schema the server validates
 * with, not one cut to fit `tools/list`).
 */
export function declaredTool(tool: CompiledTool): DeclaredTool {
  const { description, inputSchema } = tool.descriptor;
  const outputSchema = tool.outputSchemaInFull();
  return { namespace: tool.toolset.name, name: tool.name, ...(description !== undefined && { description }), inputSchema: inputSchema as JsonSchema, ...(outputSchema && { outputSchema: outputSchema as JsonSchema }) };
}
