import type { Tool } from '@modelcontextprotocol/server';

/** The three tools a server lists in code mode. */
export const SEARCH = 'search';
export const DESCRIBE = 'describe';
export const EXECUTE = 'execute';
export const CODE_MODE_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH, DESCRIBE, EXECUTE]);

/** Text-search hits one `search` returns by default, and at most. */
export const DEFAULT_HITS = 10;
export const MAX_HITS = 25;
/** The most tools or toolsets one `describe` may name. */
export const MAX_DESCRIBED = 50;

/**
 * The result schemas are open and name each key once, for success and error alike (an error is an
 * `isError` result whose structuredContent is `{ error, detail, problems?, logs?, calls? }`): the
 * list is read by a model on every connection, and stays under 2 KB.
 */
const resultOf = (properties: Record<string, object>) => ({ type: 'object', properties: { message: { type: 'string' }, error: { type: 'string' }, detail: { type: 'string' }, ...properties } });
const STRINGS = { type: 'array', items: { type: 'string' } };

/**
 * The descriptors of code mode's tools, for a view of `toolCount` tools in `groupCount` groups.
 * Read by a model on every connection: short, and the same bytes for the same counts.
 */
export function codeModeDescriptors(groupCount: number, toolCount: number): Tool[] {
  const groups = `${groupCount} group${groupCount === 1 ? '' : 's'}`;
  return [
    {
      name: SEARCH,
      description:
        `Find tools among this server's ${toolCount} tools in ${groups}: a query in plain words, or a program (JS) over catalog, ` +
        '[{ name, toolset, call, summary, arguments, required, method?, path? }], returning what it finds.',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', maxLength: 500 }, program: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: MAX_HITS } },
        additionalProperties: false,
      },
      outputSchema: resultOf({ tools: { type: 'array' }, value: {} }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE,
      description: 'TypeScript for tools or whole toolsets, by name: api.<toolset>.<tool>(args): Promise<Result>, with their types and docs.',
      inputSchema: { type: 'object', properties: { names: { ...STRINGS, minItems: 1, maxItems: MAX_DESCRIBED } }, required: ['names'], additionalProperties: false },
      outputSchema: resultOf({ declarations: { type: 'string' } }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: EXECUTE,
      description:
        'Run a TypeScript async function body that calls tools (await api.<toolset>.<tool>(args)) and returns what you need. ' +
        'Type-checked first; sandboxed: no network, files or timers; console.log is kept; a refused call throws ToolCallError.',
      inputSchema: { type: 'object', properties: { program: { type: 'string' } }, required: ['program'], additionalProperties: false },
      outputSchema: resultOf({ value: {}, logs: STRINGS, calls: { type: 'integer' } }),
    },
  ];
}
