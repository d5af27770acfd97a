import type { JsonSchema } from './compare-schema';

/** One tool as `tools/list` serves it. */
export interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  [field: string]: unknown;
}

/** `contract.json`: a toolset library's catalog as served, and the package version that served it. */
export interface ContractSnapshot {
  version: string;
  tools: ToolEntry[];
}

export const SNAPSHOT_FILE = 'contract.json';

const TOOL_ORDER = ['name', 'title', 'description', 'annotations', 'inputSchema', 'outputSchema'];
const SCHEMA_ORDER = [
  'type', 'title', 'description', 'deprecated', 'default', 'examples', 'format', 'pattern', 'enum',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'minItems', 'maxItems', 'uniqueItems', 'required', 'properties', 'additionalProperties', 'items', 'anyOf',
];
/** Keywords whose values are data, not schemas: kept exactly as served. */
const VALUES = new Set(['enum', 'const', 'default', 'examples', 'required']);

/**
 * The snapshot of a served catalog: tools sorted by name, keys in a fixed order (so the file's
 * diff shows what changed, not how the emitter happened to order keys), property order kept.
 */
export function snapshotOf(version: string, tools: readonly ToolEntry[]): ContractSnapshot {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { version, tools: sorted.map((tool) => ordered(tool, TOOL_ORDER, (key, value) => (key === 'inputSchema' || key === 'outputSchema' ? canonicalSchema(value) : value)) as ToolEntry) };
}

export function serializeSnapshot(snapshot: ContractSnapshot): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

/** Reads `contract.json`, or says what is wrong with it and how to get a good one back. */
export function parseSnapshot(text: string, file: string): ContractSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}). Restore it from git, or delete it and run the contract target to write it again.`);
  }
  const snapshot = parsed as Partial<ContractSnapshot>;
  const toolsValid = Array.isArray(snapshot?.tools) && snapshot.tools.every((tool) => typeof tool?.name === 'string' && typeof tool.inputSchema === 'object');
  if (typeof snapshot?.version !== 'string' || !toolsValid) {
    throw new Error(`${file} is not a contract snapshot: it needs "version" (a string) and "tools" (tools/list entries, each with a name and an inputSchema). Restore it from git, or delete it and run the contract target to write it again.`);
  }
  return snapshot as ContractSnapshot;
}

function canonicalSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(canonicalSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  return ordered(schema as Record<string, unknown>, SCHEMA_ORDER, (key, value) => {
    if (VALUES.has(key)) return value;
    // Property names are not keywords: keep their declared order, canonicalise each schema.
    if (key === 'properties' || key === '$defs') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, property]) => [name, canonicalSchema(property)]));
    }
    return canonicalSchema(value);
  });
}

/** `object`'s keys: those in `order` first, in that order, then the rest alphabetically. */
function ordered(object: Record<string, unknown>, order: readonly string[], map: (key: string, value: unknown) => unknown): Record<string, unknown> {
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  const keys = Object.keys(object).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, map(key, object[key])]));
}
