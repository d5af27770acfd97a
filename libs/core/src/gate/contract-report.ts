import type { ToolCatalog } from './tool-catalog';

interface JsonSchema {
  type?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
}

/**
 * A one-screen summary of what each tool takes and returns, as the contract target prints it:
 * `search(query, limit?) -> SearchResult { message, books: Book[] } | ToolError`.
 */
export function describeCatalog(catalog: ToolCatalog): string {
  const lines: string[] = [];
  for (const toolset of catalog.toolsets) {
    const credentials = toolset.credentialHeaders.length ? ` (credential headers: ${toolset.credentialHeaders.join(', ')})` : '';
    lines.push(`toolset ${toolset.name}${credentials}`);
    for (const tool of toolset.tools) {
      const input = tool.descriptor.inputSchema as JsonSchema;
      const args = Object.keys(input.properties ?? {}).map((name) => (input.required?.includes(name) ? name : `${name}?`));
      const output = tool.descriptor.outputSchema as JsonSchema;
      const arms = output.anyOf ?? [output];
      lines.push(`  ${tool.name}(${args.join(', ')}) -> ${arms.map(describeObject).join(' | ')}`);
    }
  }
  const count = catalog.tools.size;
  lines.push(count === 1 ? '1 tool follows the contract.' : `${count} tools follow the contract.`);
  return lines.join('\n');
}

function describeObject(schema: JsonSchema): string {
  const keys = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${name}${schema.required?.includes(name) ? '' : '?'}: ${describeType(property)}`,
  );
  return `${schema.title ?? 'object'} { ${keys.join(', ')} }`;
}

function describeType(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(describeType).join(' | ');
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.type === 'array') return `${describeType(schema.items ?? {})}[]`;
  if (schema.type === 'object') return schema.title ?? 'object';
  if (schema.format) return `${schema.type}<${schema.format}>`;
  return schema.type ?? 'unknown';
}
