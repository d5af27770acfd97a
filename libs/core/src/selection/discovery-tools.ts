import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../compiled/tool-catalog';

/** The three tools a server lists in discovery mode. */
export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOLS = 'describe_tools';
export const CALL_TOOL = 'call_tool';
export const DISCOVERY_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, DESCRIBE_TOOLS, CALL_TOOL]);

/** How many entries one search or describe may return: each carries two schemas. */
export const MAX_ENTRIES = 20;
export const DEFAULT_SEARCH_LIMIT = 5;
/** Group names are offered as an enum to `search_tools` while there are at most this many. */
const MAX_ENUMERATED_GROUPS = 60;

/** One tool as discovery describes it: what a direct `tools/list` entry says, and its group. */
export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  toolset: string;
  annotations?: Tool['annotations'];
  inputSchema: Tool['inputSchema'];
  outputSchema?: Tool['outputSchema'];
}

export function toolEntry(tool: CompiledTool): ToolEntry {
  const { title, description, annotations, inputSchema, outputSchema } = tool.descriptor;
  return {
    name: tool.name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    toolset: tool.toolset.name,
    ...(annotations !== undefined && { annotations }),
    inputSchema,
    ...(outputSchema !== undefined && { outputSchema }),
  };
}

const ENTRY_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    toolset: { type: 'string' },
    annotations: { type: 'object' },
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object' },
  },
  required: ['name', 'toolset', 'inputSchema'],
} as const;

const ENTRIES_RESULT = {
  type: 'object',
  properties: { message: { type: 'string' }, tools: { type: 'array', items: ENTRY_SCHEMA } },
  required: ['message', 'tools'],
  additionalProperties: false,
} as const;

/** The descriptors of the three discovery tools, for a view whose groups are `groups`. */
export function discoveryDescriptors(groups: readonly string[], toolCount: number): Tool[] {
  const groupItems: { type: string; enum?: string[] } = groups.length > 0 && groups.length <= MAX_ENUMERATED_GROUPS ? { type: 'string', enum: [...groups] } : { type: 'string' };
  const groupNames = { type: 'array', items: groupItems, minItems: 1 };
  return [
    {
      name: SEARCH_TOOLS,
      description:
        `Find tools for a task among this server's ${toolCount} tools in ${groups.length} group${groups.length === 1 ? '' : 's'}. ` +
        'Describe the task in plain words; returns the best matches, each with its arguments (inputSchema) and result (outputSchema). Then run one with call_tool.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, description: 'The task in plain words, e.g. "list open pull requests of a repository".' },
          toolsets: { ...groupNames, description: 'Search only these groups (toolsets).' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_ENTRIES, default: DEFAULT_SEARCH_LIMIT, description: 'How many matches to return.' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      outputSchema: ENTRIES_RESULT,
      annotations: { title: 'Search tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOLS,
      description: 'Describe tools by name: each with its arguments (inputSchema) and result (outputSchema), as search_tools gives them.',
      inputSchema: {
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_ENTRIES, description: 'Tool names, as search_tools gave them.' } },
        required: ['names'],
        additionalProperties: false,
      },
      outputSchema: ENTRIES_RESULT,
      annotations: { title: 'Describe tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      description:
        "Run a tool found with search_tools. `arguments` must match the tool's inputSchema; the result's structuredContent is the tool's own result, matching its outputSchema.",
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, description: 'The tool to run.' },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
        required: ['name'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', description: "The called tool's result: see its outputSchema in search_tools or describe_tools." },
      annotations: { title: 'Call a tool' },
    },
  ];
}
