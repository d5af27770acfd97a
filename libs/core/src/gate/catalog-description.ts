import type { MaterializePath } from '../compiled/args-materializer';
import type { CompiledTool, ToolCatalog } from '../compiled/tool-catalog';
import { plural } from '../helpers/client-text';

export interface DescribeOptions {
  /** Also say how each tool's arguments become its DTO instance (the contract target's `--verbose`, or `TOOLSETS_DEBUG`). */
  verbose?: boolean;
}

interface JsonSchema {
  type?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  /** A class shared through `$defs`: named by its key. */
  $ref?: string;
}

/**
 * A one-screen summary of what each tool takes and returns, as the contract target prints it:
 * `search(query, limit?) -> SearchResult { message, books: Book[] } | ToolError`.
 */
export function describeCatalog(catalog: ToolCatalog, options: DescribeOptions = {}): string {
  const lines: string[] = [];
  for (const toolset of catalog.toolsets) {
    const credentials = toolset.credentialHeaders.length ? ` (credential headers: ${toolset.credentialHeaders.join(', ')})` : '';
    lines.push(`toolset ${toolset.name}${credentials}`);
    for (const tool of toolset.tools) lines.push(...describeTool(tool, options));
    for (const prompt of toolset.prompts) {
      const args = (prompt.descriptor.arguments ?? []).map((argument) => (argument.required ? argument.name : `${argument.name}?`));
      lines.push(`  prompt ${prompt.name}(${args.join(', ')})`);
    }
    for (const resource of toolset.resources) lines.push(`  resource ${resource.uri}${resource.descriptor.mimeType ? ` (${resource.descriptor.mimeType})` : ''}`);
    for (const template of toolset.templates) lines.push(`  resource template ${template.descriptor.uriTemplate}${template.descriptor.mimeType ? ` (${template.descriptor.mimeType})` : ''}`);
  }
  const count = catalog.tools.size;
  const others = [plural(catalog.prompts.size, 'prompt'), plural(catalog.resources.size + catalog.templates.length, 'resource')].filter((text) => !text.startsWith('0 '));
  lines.push(`${plural(count, 'tool')}${others.length ? `, ${others.join(', ')}` : ''} follow${count === 1 && others.length === 0 ? 's' : ''} the contract.`);
  return lines.join('\n');
}

function describeTool(tool: CompiledTool, options: DescribeOptions): string[] {
  const input = tool.descriptor.inputSchema as JsonSchema;
  const args = Object.keys(input.properties ?? {}).map((name) => (input.required?.includes(name) ? name : `${name}?`));
  const output = tool.descriptor.outputSchema as JsonSchema;
  const arms = output.anyOf ?? [output];
  const scopes = tool.requiredScopes.length > 0 ? `  [scopes: ${tool.requiredScopes.join(' ')}]` : '';
  const view = tool.view ? `  [view: ${tool.view.content.uri}]` : '';
  const line = `  ${tool.name}(${args.join(', ')}) -> ${arms.map(describeObject).join(' | ')}${scopes}${view}`;
  return options.verbose && tool.materialize ? [line, `    arguments: ${describePath(tool.materialize.path)}`] : [line];
}

function describePath(path: MaterializePath): string {
  if (path.kind === 'compiled') return 'compiled instance builder';
  if (path.kind === 'raw') return 'passed as received (raw JSON Schema)';
  return `class-transformer's plainToInstance, because ${path.reason}`;
}

function describeObject(schema: JsonSchema): string {
  const keys = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${name}${schema.required?.includes(name) ? '' : '?'}: ${describeType(property)}`,
  );
  return `${schema.title ?? 'object'} { ${keys.join(', ')} }`;
}

function describeType(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop()!;
  if (schema.anyOf) return schema.anyOf.map(describeType).join(' | ');
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.type === 'array') return `${describeType(schema.items ?? {})}[]`;
  if (schema.type === 'object') return schema.title ?? 'object';
  if (schema.format) return `${schema.type}<${schema.format}>`;
  return schema.type ?? 'unknown';
}
