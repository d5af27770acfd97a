import type { Tool } from '@modelcontextprotocol/server';
import { plural } from '@toolsets/core';

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
/** Text with something in it (not only spaces). */
const TEXT = { type: 'string', pattern: '\\S' };

/**
 * What each tool takes: advertised as its `inputSchema`, and the only check of its arguments. That
 * `search` takes a query or a program, not both, is said in its description and checked by the
 * server: a top-level `oneOf` is refused in a tool's input schema by some model APIs.
 */
export const CODE_MODE_INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
  [SEARCH]: { type: 'object', properties: { query: { ...TEXT, maxLength: 500 }, program: TEXT, limit: { type: 'integer', minimum: 1, maximum: MAX_HITS } }, additionalProperties: false },
  [DESCRIBE]: { type: 'object', properties: { names: { type: 'array', items: TEXT, minItems: 1, maxItems: MAX_DESCRIBED } }, required: ['names'], additionalProperties: false },
  [EXECUTE]: { type: 'object', properties: { program: TEXT }, required: ['program'], additionalProperties: false },
};

/**
 * The descriptors of code mode's tools, for a view of `toolCount` tools in `groupCount` groups.
 * Read by a model on every connection: short, and the same bytes for the same counts.
 */
export function codeModeDescriptors(groupCount: number, toolCount: number): Tool[] {
  return [
    {
      name: SEARCH,
      description:
        `Find tools among this server's ${plural(toolCount, 'tool')} in ${plural(groupCount, 'group')}: a query in plain words, or a program (JS) over catalog, ` +
        '[{ name, toolset, call, summary, arguments, required, method?, path? }], returning what it finds.',
      inputSchema: CODE_MODE_INPUTS[SEARCH] as Tool['inputSchema'],
      outputSchema: resultOf({ tools: { type: 'array' }, value: {} }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE,
      description:
        'TypeScript for tools (name or call path), toolsets or types, by name: api.<toolset>.<tool>(args): Promise<Result>; ' +
        'args and results one named type deep, deeper ones listed to describe next.',
      inputSchema: CODE_MODE_INPUTS[DESCRIBE] as Tool['inputSchema'],
      outputSchema: resultOf({ declarations: { type: 'string' } }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: EXECUTE,
      description:
        'Run a TypeScript async function body that calls tools (await api.<toolset>.<tool>(args)) and returns what you need. ' +
        'Type-checked first; sandboxed: no network, files or timers; console.log is kept; a refused call throws ToolCallError.',
      inputSchema: CODE_MODE_INPUTS[EXECUTE] as Tool['inputSchema'],
      outputSchema: resultOf({ value: {}, logs: STRINGS, calls: { type: 'integer' } }),
    },
  ];
}
