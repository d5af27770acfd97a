import type { CallToolResult } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox' with { 'resolution-mode': 'import' };
import { lazyValidator, type SchemaValidator } from '../../compiled/lazy-validator';
import type { CompiledTool } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { CatalogView } from '../../selection/catalog-view';
import type { CatalogViews } from '../../selection/catalog-views';
import { CALL_TOOL, DEFAULT_SEARCH_LIMIT, DESCRIBE_TOOLS, discoveryDescriptors, SEARCH_TOOLS, toolEntry, type ToolEntry } from '../../selection/discovery-tools';
import { argumentProblems } from '../checks/argument-errors';
import { invalidArguments, textError } from './tool-call';

/** Runs a catalog tool exactly as a direct `tools/call` would (arguments, scope, result). */
export type DirectCall = (tool: CompiledTool, args: unknown) => Promise<CallToolResult>;

interface SearchArgs {
  query: string;
  toolsets?: string[];
  limit?: number;
}

/** The argument schemas of the discovery tools, without the per-view group enum (checked in words). */
const [SEARCH, DESCRIBE, CALL] = discoveryDescriptors([], 0).map((tool) => {
  const schema = tool.inputSchema as { properties: Record<string, unknown> };
  return { validator: lazyValidator(schema as unknown as TSchema), declared: Object.keys(schema.properties) };
});

/**
 * One call to a discovery tool, in the view of the request that makes it: search and describe see
 * only the view's tools, and `call_tool` runs only those, through the same path as a direct call.
 */
export async function callDiscoveryTool(name: string, args: unknown, view: CatalogView, views: CatalogViews, direct: DirectCall): Promise<CallToolResult> {
  if (name === SEARCH_TOOLS) return checked(name, args, SEARCH) ?? searchTools(args as SearchArgs, view, views);
  if (name === DESCRIBE_TOOLS) return checked(name, args, DESCRIBE) ?? describeTools((args as { names: string[] }).names, view);
  const invalid = checked(name, args, CALL);
  if (invalid) return invalid;
  const call = args as { name: string; arguments?: Record<string, unknown> };
  const tool = view.tools.get(call.name);
  if (!tool) return textError(`No tool '${clip(call.name, 80)}' is available to this request. Find tools with search_tools. ${view.availableTools}`);
  const result = await direct(tool, call.arguments ?? {});
  // structuredContent is the tool's own, validated against its outputSchema. The tool's JSON text
  // block stays first, for clients that read it; a last block names the tool that ran.
  return { ...result, content: [...result.content, { type: 'text', text: `(${result.isError ? 'error from' : 'result of'} tool '${tool.name}')` }] };
}

function checked(name: string, args: unknown, schema: { validator: SchemaValidator; declared: string[] }): CallToolResult | undefined {
  const value = args ?? {};
  if (schema.validator.Check(value)) return undefined;
  return invalidArguments(name, argumentProblems(schema.validator, value, schema.declared));
}

function searchTools(args: SearchArgs, view: CatalogView, views: CatalogViews): CallToolResult {
  const groups = args.toolsets && new Set(args.toolsets);
  const unknown = args.toolsets?.filter((group) => !view.groups.includes(group)) ?? [];
  if (unknown.length > 0) {
    return invalidArguments(SEARCH_TOOLS, [`'toolsets': no group ${unknown.map((g) => `'${clip(g, 60)}'`).join(', ')} here. Groups: ${view.groups.join(', ')}.`]);
  }
  const visible = (tool: string) => {
    const found = view.tools.get(tool);
    return found !== undefined && (!groups || groups.has(found.toolset.name));
  };
  const hits = views.search.search(args.query, visible, args.limit ?? DEFAULT_SEARCH_LIMIT);
  const tools = hits.map((hit) => toolEntry(view.tools.get(hit.name)!));
  const message =
    tools.length === 0
      ? `No tool matches ${JSON.stringify(clip(args.query, 80))}. Try other words, or fewer of them.`
      : `${tools.length} tool(s) for ${JSON.stringify(clip(args.query, 80))}, best first: ${tools.map((t) => t.name).join(', ')}. Run one with ${CALL_TOOL}.`;
  return entriesResult(message, tools);
}

function describeTools(names: readonly string[], view: CatalogView): CallToolResult {
  const missing = names.filter((name) => !view.tools.has(name));
  if (missing.length > 0) {
    return textError(`No tool ${missing.map((n) => `'${clip(n, 80)}'`).join(', ')} is available to this request. Find tools with ${SEARCH_TOOLS}.`);
  }
  const tools = [...new Set(names)].map((name) => toolEntry(view.tools.get(name)!));
  return entriesResult(`${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}.`, tools);
}

function entriesResult(message: string, tools: ToolEntry[]): CallToolResult {
  const structuredContent = { message, tools };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent: structuredContent as unknown as Record<string, unknown> };
}
