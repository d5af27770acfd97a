import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SchemaNode } from '../../types/schema-node';
import { lazyValidator, type SchemaValidator } from '../../compiled/lazy-validator';
import type { CompiledTool } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CatalogSlices } from '../../selection/catalog-slices';
import {
  BROWSE_PAGE,
  BROWSE_TOOLS,
  CALL_TOOL,
  DEFAULT_SEARCH_LIMIT,
  DESCRIBE_TOOLS,
  discoveryDescriptors,
  FULL_DETAIL_BYTES,
  SEARCH_TOOLS,
  toolEntry,
  toolHit,
  type ToolGroup,
  type ToolHit,
} from '../../selection/discovery-tools';
import { argumentProblems } from '../checks/argument-errors';
import { invalidArguments, textError } from './tool-call';

/** Runs a catalog tool exactly as a direct `tools/call` would (arguments, scope, result). */
export type DirectCall = (tool: CompiledTool, args: unknown) => Promise<CallToolResult>;

interface SearchArgs {
  query: string;
  toolsets?: string[];
  limit?: number;
  detail?: 'compact' | 'full';
}

interface BrowseArgs {
  toolset?: string;
  cursor?: string;
}

/** The argument schemas of the discovery tools (a group name is checked against the view in words). */
const [SEARCH, BROWSE, DESCRIBE, CALL] = discoveryDescriptors(0, 0).map((tool) => {
  const schema = tool.inputSchema as { properties: Record<string, unknown> };
  return { validator: lazyValidator(schema as unknown as SchemaNode), declared: Object.keys(schema.properties) };
});

/**
 * One call to a discovery tool, in the view of the request that makes it: search and describe see
 * only the view's tools, and `call_tool` runs only those, through the same path as a direct call.
 */
export async function callDiscoveryTool(name: string, args: unknown, view: CatalogSlice, views: CatalogSlices, direct: DirectCall): Promise<CallToolResult> {
  if (name === SEARCH_TOOLS) return checked(name, args, SEARCH) ?? searchTools(args as SearchArgs, view, views);
  if (name === BROWSE_TOOLS) return checked(name, args, BROWSE) ?? browseTools((args ?? {}) as BrowseArgs, view);
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

function searchTools(args: SearchArgs, view: CatalogSlice, views: CatalogSlices): CallToolResult {
  // A larger group (defineGroup) stands for the toolsets in it, as it does in ?toolsets=.
  const named = (args.toolsets ?? []).flatMap((name) => views.larger.get(name) ?? [name]);
  const unknown = unknownGroups(named, view);
  if (unknown) return invalidArguments(SEARCH_TOOLS, [`'toolsets': ${unknown}`]);
  const groups = args.toolsets && new Set(named);
  const visible = (tool: string) => {
    const found = view.tools.get(tool);
    return found !== undefined && (!groups || groups.has(found.toolset.name));
  };
  const hits = views.search.search(args.query, visible, args.limit ?? DEFAULT_SEARCH_LIMIT);
  const tools = hits.map((hit) => toolHit(view.tools.get(hit.name)!));
  const query = JSON.stringify(clip(args.query, 80));
  if (tools.length === 0) return listResult({ message: `No tool matches ${query}. Try other words, or browse the groups with ${BROWSE_TOOLS}.`, tools });
  const withoutSchemas = args.detail === 'full' ? inlineSchemas(tools, view) : tools.length;
  const next =
    withoutSchemas === 0
      ? `Run one with ${CALL_TOOL}.`
      : args.detail === 'full'
        ? `The last ${withoutSchemas} come without schemas (over ${FULL_DETAIL_BYTES / 1024} KiB): get them with ${DESCRIBE_TOOLS}, then run one with ${CALL_TOOL}.`
        : `Get a tool's arguments and result with ${DESCRIBE_TOOLS}, then run it with ${CALL_TOOL}.`;
  return listResult({ message: `${tools.length} tool(s) for ${query}, best first. ${next}`, tools });
}

/** Adds each hit's schemas, best first, while they fit FULL_DETAIL_BYTES; returns how many were left without. */
function inlineSchemas(tools: ToolHit[], view: CatalogSlice): number {
  let bytes = 0;
  for (let i = 0; i < tools.length; i++) {
    const { inputSchema, outputSchema } = view.tools.get(tools[i].name)!.descriptor;
    bytes += JSON.stringify(inputSchema).length + (outputSchema ? JSON.stringify(outputSchema).length : 0);
    if (bytes > FULL_DETAIL_BYTES) return tools.length - i;
    tools[i] = { ...tools[i], inputSchema, ...(outputSchema && { outputSchema }) };
  }
  return 0;
}

/** Without a toolset, the view's groups; with one, a page of its tools, compact. */
function browseTools(args: BrowseArgs, view: CatalogSlice): CallToolResult {
  if (args.toolset === undefined) {
    const groups = [...view.groupList];
    return listResult({ message: `${groups.length} group(s) of ${view.tools.size} tools. List one's tools with ${BROWSE_TOOLS} { toolset }, or search them with ${SEARCH_TOOLS} { query, toolsets }.`, groups });
  }
  const unknown = unknownGroups([args.toolset], view);
  if (unknown) return invalidArguments(BROWSE_TOOLS, [`'toolset': ${unknown}`]);
  const all = [...view.tools.values()].filter((tool) => tool.toolset.name === args.toolset);
  const start = args.cursor === undefined ? 0 : pageStart(args.cursor, all.length);
  if (start === undefined) return invalidArguments(BROWSE_TOOLS, [`'cursor': not one this tool gave for '${clip(args.toolset, 60)}'. Leave it out to start from the first page.`]);
  const page = all.slice(start, start + BROWSE_PAGE).map(toolHit);
  const end = start + page.length;
  const more = end < all.length;
  return listResult({
    message: `Tools ${start + 1}–${end} of ${all.length} in '${args.toolset}'.${more ? ` Next page: ${BROWSE_TOOLS} with cursor "${String(end)}".` : ''}`,
    tools: page,
    ...(more && { nextCursor: String(end) }),
  });
}

/** A cursor is the index of the page's first tool, as a decimal string; anything else is refused. */
function pageStart(cursor: string, total: number): number | undefined {
  if (!/^(0|[1-9]\d{0,6})$/.test(cursor)) return undefined;
  const start = Number(cursor);
  return start < total ? start : undefined;
}

/** What to say about `names` that are not groups of this view, or undefined when all are. */
function unknownGroups(names: readonly string[], view: CatalogSlice): string | undefined {
  const unknown = names.filter((group) => !view.groups.includes(group));
  if (unknown.length === 0) return undefined;
  return `no group ${unknown.map((g) => `'${clip(g, 60)}'`).join(', ')} here. Groups: ${view.groups.join(', ')}.`;
}

function describeTools(names: readonly string[], view: CatalogSlice): CallToolResult {
  const missing = names.filter((name) => !view.tools.has(name));
  if (missing.length > 0) {
    return textError(`No tool ${missing.map((n) => `'${clip(n, 80)}'`).join(', ')} is available to this request. Find tools with ${SEARCH_TOOLS}.`);
  }
  const tools = [...new Set(names)].map((name) => toolEntry(view.tools.get(name)!));
  return listResult({ message: `${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}.`, tools });
}

function listResult(structuredContent: { message: string; tools?: unknown[]; groups?: ToolGroup[]; nextCursor?: string }): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent: structuredContent as unknown as Record<string, unknown> };
}
