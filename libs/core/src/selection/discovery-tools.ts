import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../compiled/tool-catalog';
import { firstSentence } from './search-text';
import { plural } from '../helpers/client-text';

/** The four tools a server lists in discovery mode. */
export const SEARCH_TOOLS = 'search_tools';
export const BROWSE_TOOLS = 'browse_tools';
export const DESCRIBE_TOOLS = 'describe_tools';
export const CALL_TOOL = 'call_tool';
export const DISCOVERY_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_TOOLS, BROWSE_TOOLS, DESCRIBE_TOOLS, CALL_TOOL]);

/** How many hits one search returns by default, and at most: a compact hit is ~250 bytes. */
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 25;
/** How many tools one describe_tools call may name: each entry carries both schemas. */
export const MAX_DESCRIBED = 20;
/** How many tools one page of browse_tools lists. */
export const BROWSE_PAGE = 25;
/**
 * The bytes of schemas a `detail: "full"` search may inline, over all its hits together; hits past
 * it come compact, and the answer says to describe them.
 */
export const FULL_DETAIL_BYTES = 32_768;
/** The longest summary a compact hit carries (the description's first sentence). */
export const SUMMARY_CHARS = 160;

/** One tool as search and browse give it: enough to choose, without its schemas. */
export interface ToolHit {
  name: string;
  title?: string;
  /** The first sentence of its description, at most 160 characters. */
  summary: string;
  toolset: string;
  /** Its behaviour hints (`readOnlyHint`, `destructiveHint`, …), as tools/list gives them, without `title`. */
  annotations?: Omit<NonNullable<Tool['annotations']>, 'title'>;
  /** The names of its required arguments. */
  required: string[];
  /** With `detail: "full"`, within the byte cap: its schemas, as describe_tools gives them. */
  inputSchema?: Tool['inputSchema'];
  outputSchema?: Tool['outputSchema'];
}

/** One tool as describe_tools gives it: what a direct `tools/list` entry says, and its group. */
export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  toolset: string;
  annotations?: Tool['annotations'];
  inputSchema: Tool['inputSchema'];
  outputSchema?: Tool['outputSchema'];
}

/** One group as browse_tools lists it. */
export interface ToolGroup {
  name: string;
  description?: string;
  tools: number;
}

export function toolHit(tool: CompiledTool): ToolHit {
  const { title, description, annotations, inputSchema } = tool.descriptor;
  const { title: annotatedTitle, ...hints } = annotations ?? {};
  const shownTitle = title ?? annotatedTitle;
  return {
    name: tool.name,
    ...(shownTitle !== undefined && { title: shownTitle }),
    summary: firstSentence(description ?? '', SUMMARY_CHARS),
    toolset: tool.toolset.name,
    ...(Object.keys(hints).length > 0 && { annotations: hints }),
    required: Array.isArray(inputSchema.required) ? [...inputSchema.required] : [],
  };
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

// The result schemas name only the keys every entry has (the interfaces above say the rest): the
// discovery list is read by a model on every connection, and stays under 4 KB.
const HIT_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, summary: { type: 'string' }, toolset: { type: 'string' }, required: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'summary', 'toolset', 'required'],
} as const;

const ENTRY_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, toolset: { type: 'string' }, inputSchema: { type: 'object' } },
  required: ['name', 'toolset', 'inputSchema'],
} as const;

const GROUP_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, tools: { type: 'integer' } },
  required: ['name', 'tools'],
} as const;

/** A discovery tool's closed result: a message and `lists`, of which `required` are always there. */
const resultOf = (lists: Record<string, object>, required: readonly string[]) => ({
  type: 'object',
  properties: { message: { type: 'string' }, ...lists },
  required: ['message', ...required],
  additionalProperties: false,
});

/** The descriptors of the four discovery tools, for a view of `toolCount` tools in `groupCount` groups. */
export function discoveryDescriptors(groupCount: number, toolCount: number): Tool[] {
  const groups = plural(groupCount, 'group');
  return [
    {
      name: SEARCH_TOOLS,
      description:
        `Find tools for a task among this server's ${plural(toolCount, 'tool')} in ${groups}. Describe the task in plain words; each match comes with a summary, ` +
        'hints and required arguments. Then describe_tools gives its schemas, call_tool runs it.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, description: 'The task in plain words, e.g. "cancel a meeting".' },
          toolsets: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Search only these groups (see browse_tools).' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT, description: 'How many matches to return.' },
          detail: { type: 'string', enum: ['compact', 'full'], default: 'compact', description: `"full" adds schemas (up to ${FULL_DETAIL_BYTES / 1024} KiB).` },
        },
        required: ['query'],
        additionalProperties: false,
      },
      outputSchema: resultOf({ tools: { type: 'array', items: HIT_SCHEMA } }, ['tools']),
      annotations: { title: 'Search tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: BROWSE_TOOLS,
      description: `Browse when search finds nothing: with no toolset, lists the ${groups} with what each is for and its tool count; with a toolset, lists its tools a page at a time.`,
      inputSchema: {
        type: 'object',
        properties: {
          toolset: { type: 'string', minLength: 1, description: 'The group to list the tools of.' },
          cursor: { type: 'string', description: 'nextCursor from the previous page.' },
        },
        additionalProperties: false,
      },
      outputSchema: resultOf({ groups: { type: 'array', items: GROUP_SCHEMA }, tools: { type: 'array', items: HIT_SCHEMA }, nextCursor: { type: 'string' } }, []),
      annotations: { title: 'Browse tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOLS,
      description: 'Describe tools by name: each with its full description, arguments (inputSchema) and result (outputSchema).',
      inputSchema: {
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_DESCRIBED, description: 'Tool names, as search_tools gave them.' } },
        required: ['names'],
        additionalProperties: false,
      },
      outputSchema: resultOf({ tools: { type: 'array', items: ENTRY_SCHEMA } }, ['tools']),
      annotations: { title: 'Describe tools', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      description:
        "Run a tool found with search_tools. `arguments` must match the tool's inputSchema (see describe_tools); the result's structuredContent is the tool's own result, matching its outputSchema.",
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, description: 'The tool to run.' },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
        required: ['name'],
        additionalProperties: false,
      },
      outputSchema: { type: 'object', description: "The called tool's result: see its outputSchema in describe_tools." },
      annotations: { title: 'Call a tool' },
    },
  ];
}
