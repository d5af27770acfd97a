import { firstSentence, type CompiledTool } from '@toolsets/core';
import { identifier } from '../declarations/catalog-declarations';

/** One tool as a `search` program sees it in `catalog`: enough to match on, without schemas. */
export interface CatalogEntry {
  name: string;
  toolset: string;
  /** `api.<toolset>.<tool>`: how a program calls it; absent when only a direct `tools/call` can (see `direct`). */
  call?: string;
  /** Why a program cannot call it, and how to call it instead. */
  direct?: string;
  summary: string;
  description: string;
  /** Its argument names, and the required ones. */
  arguments: string[];
  required: string[];
  /** For a tool generated from an API document: the operation's HTTP method and path. */
  method?: string;
  path?: string;
}

/** The declarations a `search` program is checked against. */
export const CATALOG_DECLARATIONS = `interface CatalogEntry {
  /** The tool's name. */
  readonly name: string;
  /** Its toolset (group): the namespace under api. */
  readonly toolset: string;
  /** How a program calls it: 'api.<toolset>.<tool>'. Absent when only a direct tools/call can (see direct). */
  readonly call?: string;
  /** Why a program cannot call it. */
  readonly direct?: string;
  /** The first sentence of its description. */
  readonly summary: string;
  readonly description: string;
  /** Its argument names. */
  readonly arguments: readonly string[];
  /** The names of its required arguments. */
  readonly required: readonly string[];
  /** For a tool generated from an API document: 'GET', 'POST', … */
  readonly method?: string;
  /** For a tool generated from an API document: the operation's path, e.g. '/repos/{owner}/{repo}/issues'. */
  readonly path?: string;
}
/** Every tool this caller may use, in catalog order. */
declare const catalog: readonly CatalogEntry[];
`;

/**
 * Why a program may not call `tool`, or undefined when it may. A task tool runs for minutes and
 * answers through its task, past a program's wall time: it stays callable by name with
 * `tools/call`. (A tool that asks the user something is callable: the program stops at its
 * question, which goes to the client as `execute`'s own, and runs again once answered.)
 */
export function whyDirect(tool: CompiledTool): string | undefined {
  if (tool.task) return 'it runs as an MCP task (long-running): call it by name with tools/call, outside a program';
  return undefined;
}

/** `api.<toolset>.<tool>`, as the declarations name it. */
export const callPath = (tool: CompiledTool) => `api.${identifier(tool.toolset.name)}.${identifier(tool.name)}`;

/** A generated tool's result says `What GET /path answered.`: its operation. */
const OPERATION = /^What (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) answered\./;

export function catalogEntry(tool: CompiledTool): CatalogEntry {
  const { description = '', inputSchema, outputSchema } = tool.descriptor;
  const direct = whyDirect(tool);
  const operation = OPERATION.exec(String((outputSchema as { description?: unknown } | undefined)?.description ?? firstArmDescription(outputSchema)));
  return {
    name: tool.name,
    toolset: tool.toolset.name,
    ...(direct ? { direct } : { call: callPath(tool) }),
    summary: firstSentence(description),
    description,
    arguments: Object.keys((inputSchema as { properties?: object }).properties ?? {}),
    required: Array.isArray(inputSchema.required) ? [...inputSchema.required] : [],
    ...(operation && { method: operation[1], path: operation[2] }),
  };
}

function firstArmDescription(schema: unknown): string {
  const arms = (schema as { anyOf?: { description?: string }[] } | undefined)?.anyOf;
  return arms?.[0]?.description ?? '';
}
