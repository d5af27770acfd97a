import type { ArgumentCuration } from '../openapi/curate-argument';
import { closest } from '../openapi/closest-name';
import type { UpstreamSource } from './upstream-snapshot';

/**
 * What the generator reads besides the snapshot (`mcp.config.json`, beside `mcp.json`): where the
 * upstream is, and the curation, in the vocabulary of `openapi.config.json`.
 */
export interface McpConfig {
  name?: string;
  /** The upstream: its streamable HTTP URL, or the command that starts it over stdio. */
  source?: UpstreamSource;
  /**
   * The upstream's own credentials, from the app's environment: for an HTTP upstream each header by
   * the variable holding its value (`{ "authorization": "EVERYTHING_TOKEN" }`); for a stdio one each
   * of the child's variables by the app's. Only names are written here, never values.
   */
  secrets?: Record<string, string>;
  /**
   * Credentials each caller brings, passed upstream per caller (an HTTP upstream only): by the header
   * the MCP client sends, the upstream header it goes in, as a bearer token or as it is:
   * `{ "x-weather-key": { "header": "authorization", "bearer": true } }`. Never the caller's own `Authorization`.
   */
  credentials?: Record<string, { header: string; bearer?: boolean }>;
  /** Put before every tool name (`everything` gives `everything_echo`), for apps that mount several servers. */
  prefix?: string;
  /** Tool names (`*` wildcard) to serve, or to leave out. */
  include?: readonly string[];
  exclude?: readonly string[];
  /** Bytes of JSON a tool's `tools/list` entry may take (see `@Toolset({ schemaBudget })`). */
  schemaBudget?: number;
  /** Every tool's structured answers are lenient (passed on as `unchecked` with a `note` when they break the upstream's own schema). */
  lenient?: boolean;
  /**
   * How every tool's structured answers are checked: `strict` (the default: an answer that breaks the
   * upstream's own output schema is refused, naming the paths), `lenient` (as `lenient: true`), or
   * `off` (`data` is advertised and passed on as an open value, checked against nothing).
   */
  validation?: Validation;
  /** Per upstream tool, by its upstream name. An entry that names no tool of the snapshot stops the generator. */
  tools?: Record<string, McpToolCuration>;
  /** `false` leaves the upstream's prompts out; by default each is served as a `@Prompt` that asks the upstream. */
  prompts?: boolean;
  /** `false` leaves the upstream's resources and resource templates out; by default each is served, read from the upstream. */
  resources?: boolean;
  /** Modules of your own under `src/` that the generated `src/index.ts` exports too. */
  exports?: readonly string[];
  /**
   * `true`: a stdio upstream of the 2025 era whose tools ask questions mid-call has its calls made
   * one at a time, so what it asks reaches the caller of the one call running
   * (`UpstreamSettings.oneCallAtATime`; `<NAME>_MCP_ONE_CALL_AT_A_TIME` overrides it at run time).
   */
  oneCallAtATime?: boolean;
}

export interface McpToolCuration {
  name?: string;
  title?: string;
  description?: string;
  keywords?: readonly string[];
  exclude?: boolean;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  scopes?: readonly string[];
  lenient?: boolean;
  validation?: Validation;
  /** The fields of the structured result to keep, by path (`city`, `wind.speed`; arrays are walked through). */
  fields?: readonly string[];
  arguments?: Record<string, ArgumentCuration>;
}

export type Validation = 'strict' | 'lenient' | 'off';
const VALIDATIONS: readonly Validation[] = ['strict', 'lenient', 'off'];

/** A tool's validation: its own `validation` or `lenient`, else the library's, else strict. */
export function validationOf(config: McpConfig, tool: string): Validation {
  const own = config.tools?.[tool];
  return own?.validation ?? (own?.lenient !== undefined ? (own.lenient ? 'lenient' : 'strict') : (config.validation ?? (config.lenient ? 'lenient' : 'strict')));
}

export const MCP_SNAPSHOT_FILE = 'mcp.json';
export const MCP_CONFIG_FILE = 'mcp.config.json';

const LIBRARY_KEYS = ['$schema', 'name', 'source', 'secrets', 'credentials', 'prefix', 'include', 'exclude', 'schemaBudget', 'lenient', 'validation', 'tools', 'prompts', 'resources', 'exports', 'oneCallAtATime'];
const TOOL_KEYS = ['name', 'title', 'description', 'keywords', 'exclude', 'annotations', 'scopes', 'lenient', 'validation', 'fields', 'arguments'];
const ANNOTATION_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
const ARGUMENT_KEYS = ['omit', 'value', 'default', 'name', 'description', 'enum', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'examples'];

/**
 * Stops at what the generator would otherwise ignore without a word: a key no level takes (naming
 * the one it probably meant), and a `tools` entry naming no tool the upstream has (renamed or
 * removed upstream?), with the closest name it does have.
 */
export function checkMcpConfig(config: McpConfig, upstreamTools: readonly string[]): void {
  const problems: string[] = [];
  unknownKeys(config, LIBRARY_KEYS, MCP_CONFIG_FILE, problems);
  const validation = (where: string, value: unknown) => {
    if (value !== undefined && !VALIDATIONS.includes(value as Validation)) problems.push(`${where}."validation": ${JSON.stringify(value)} is not one of ${VALIDATIONS.map((v) => `"${v}"`).join(', ')}.`);
  };
  validation(MCP_CONFIG_FILE, config.validation);
  for (const [tool, entry] of Object.entries(config.tools ?? {})) {
    const where = `${MCP_CONFIG_FILE} "tools"."${tool}"`;
    if (typeof entry === 'object' && entry !== null) validation(where, entry.validation);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: must be an object ({ "name": …, "description": …, "arguments": { … }, … }).`);
      continue;
    }
    if (!upstreamTools.includes(tool)) {
      const near = closest(tool, upstreamTools);
      problems.push(`${where}: the upstream has no tool of that name (renamed or removed upstream?).${near ? ` The closest is "${near}".` : ''} Rename the entry, or remove it.`);
    }
    unknownKeys(entry, TOOL_KEYS, where, problems);
    if (entry.annotations) unknownKeys(entry.annotations, ANNOTATION_KEYS, `${where}."annotations"`, problems);
    for (const [argument, settings] of Object.entries(entry.arguments ?? {})) unknownKeys(settings, ARGUMENT_KEYS, `${where}."arguments"."${argument}"`, problems);
  }
  for (const [header, entry] of Object.entries(config.credentials ?? {})) {
    const where = `${MCP_CONFIG_FILE} "credentials"."${header}"`;
    if (header.toLowerCase() === 'authorization') problems.push(`${where}: MCP's own authorization (the client's OAuth token for this server) uses that header, and it is never passed upstream; name a header of the library's own, such as x-${config.name ?? 'upstream'}-key.`);
    else if (!/^[a-z0-9-]+$/.test(header)) problems.push(`${where}: a header name is lower-case letters, digits and dashes (x-weather-key).`);
    if (typeof entry !== 'object' || entry === null || typeof entry.header !== 'string' || !/^[A-Za-z0-9-]+$/.test(entry.header)) problems.push(`${where}: must be { "header": "<the upstream header>", "bearer": true|false }.`);
    else unknownKeys(entry, ['header', 'bearer'], where, problems);
  }
  if (config.credentials && Object.keys(config.credentials).length > 0 && config.source && !('url' in config.source)) {
    problems.push(`${MCP_CONFIG_FILE} "credentials": callers' credentials are passed to an HTTP upstream (a connection per caller's credential); this one runs over stdio, with one environment. Use "secrets" for the app's own, or serve the upstream over HTTP.`);
  }
  if (config.oneCallAtATime !== undefined && typeof config.oneCallAtATime !== 'boolean') problems.push(`${MCP_CONFIG_FILE} "oneCallAtATime": must be true or false.`);
  else if (config.oneCallAtATime && config.source && 'url' in config.source) {
    problems.push(`${MCP_CONFIG_FILE} "oneCallAtATime": the upstream is reached over HTTP, where a question comes on the response stream of the call it belongs to and reaches its caller already. Remove it.`);
  }
  for (const key of ['include', 'exclude'] as const) {
    for (const pattern of config[key] ?? []) {
      if (!upstreamTools.some((tool) => globMatches(pattern, tool))) problems.push(`${MCP_CONFIG_FILE} "${key}": "${pattern}" matches no tool of the upstream (renamed or removed upstream?). Its tools: ${upstreamTools.join(', ') || 'none'}.`);
    }
  }
  if (problems.length > 0) throw new Error(`${MCP_CONFIG_FILE} does not fit the upstream:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
}

/** Whether the upstream tool is served: in `include` (when given) and not in `exclude` or excluded by its entry. */
export function isServed(config: McpConfig, tool: string): boolean {
  if (config.tools?.[tool]?.exclude) return false;
  if (config.include?.length && !config.include.some((pattern) => globMatches(pattern, tool))) return false;
  return !(config.exclude ?? []).some((pattern) => globMatches(pattern, tool));
}

export function globMatches(pattern: string, name: string): boolean {
  const expression = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${expression}$`).test(name);
}

function unknownKeys(value: object, known: readonly string[], where: string, problems: string[]): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    problems.push(`${where}."${key}" is not a setting${near ? `: did you mean "${near}"?` : `. Settings here: ${known.join(', ')}.`}`);
  }
}
