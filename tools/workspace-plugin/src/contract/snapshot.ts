import { createHash } from 'node:crypto';
import type { JsonSchema } from './compare-schema';

/** One tool as `tools/list` serves it. */
export interface ToolEntry {
  name: string;
  /** What the tool stands for whatever it is called (`@Tool({ origin })`, or `<Toolset class>.<method>`): renamed tools are paired by it. Not part of `tools/list`. */
  origin?: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  /** The OAuth scopes a call needs (`@RequireScopes`), sorted; absent when it needs none. Not part of `tools/list`. */
  requiredScopes?: string[];
  /** The HTTP headers its toolset reads credentials from (`credentialHeaders`), sorted; absent when none. Not part of `tools/list`. */
  credentialHeaders?: string[];
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** The MCP Apps view a host shows the result in (`@Tool({ view })`); absent when none. Recorded in place of the `_meta` that links it. */
  view?: ViewRecord;
  [field: string]: unknown;
}

/** A tool's view as the snapshot records it: its URI, who may call the tool, and the view's `_meta.ui`. */
export interface ViewRecord {
  uri: string;
  visibility?: string[];
  csp?: Record<string, string[]>;
  permissions?: Record<string, object>;
  domain?: string;
  prefersBorder?: boolean;
}

/** A group clients may select (`?toolsets=`) and see in `groups/list`: each toolset, and each `defineGroup`. */
export interface GroupEntry {
  name: string;
  description?: string;
  /** The larger groups it belongs to, sorted; absent when none. */
  groups?: string[];
}

/** `contract.json`: a toolset library's catalog as served, and the package version that served it. */
export interface ContractSnapshot {
  version: string;
  tools: ToolEntry[];
  /** Its groups, by name (recorded when `records.groups`). */
  groups?: GroupEntry[];
  /** What the file records beyond `tools/list` (absent in files written before it did). */
  records?: SnapshotRecords;
}

/** Facts a snapshot records besides the `tools/list` entries: older files lack the newer ones, and are compared without them. */
export interface SnapshotRecords {
  credentialHeaders: boolean;
  /** The groups (toolsets and `defineGroup`s) with their descriptions. */
  groups: boolean;
}

/** What a snapshot written now records (an app's curated snapshot has no groups of its own). */
export const CURRENT_RECORDS: SnapshotRecords = { credentialHeaders: true, groups: true };

export const SNAPSHOT_FILE = 'contract.json';

const TOOL_ORDER = ['name', 'origin', 'title', 'description', 'annotations', 'requiredScopes', 'credentialHeaders', 'inputSchema', 'outputSchema'];
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
export function snapshotOf(version: string, tools: readonly ToolEntry[], groups?: readonly GroupEntry[]): ContractSnapshot {
  const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const sorted = [...tools].sort(byName);
  return {
    version,
    tools: sorted.map((tool) => ordered(tool, TOOL_ORDER, (key, value) => (key === 'inputSchema' || key === 'outputSchema' ? canonicalSchema(value) : value)) as ToolEntry),
    ...(groups && { groups: [...groups].sort(byName) }),
    records: { ...CURRENT_RECORDS, groups: groups !== undefined },
  };
}

/**
 * The file's text. A schema that occurs more than once in the catalog (a tool's whole input or
 * output schema, or a class under a schema's `$defs`) is written once in a `shared` table, keyed by
 * the hash of its content, and each use holds `{ "$shared": "<hash>" }`: the file grows with the
 * distinct schemas, not with the tools (a generated API's list and watch operations share their
 * answers). A schema used once stays where it is used, so a small catalog reads as it is served.
 */
export function serializeSnapshot(snapshot: ContractSnapshot): string {
  const shared: Record<string, JsonSchema> = {};
  const defCounts = countBy(snapshot.tools.flatMap((tool) => schemasOf(tool).flatMap((schema) => Object.values(defsOf(schema)))));
  const withSharedDefs = snapshot.tools.map((tool) =>
    mapSchemas(tool, (schema) => {
      const defs = defsOf(schema);
      if (Object.keys(defs).length === 0) return schema;
      return { ...schema, $defs: Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, intern(def, defCounts, shared)])) };
    }),
  );
  const schemaCounts = countBy(withSharedDefs.flatMap(schemasOf));
  const tools = withSharedDefs.map((tool) => mapSchemas(tool, (schema) => intern(schema, schemaCounts, shared)));
  const table = Object.fromEntries(Object.keys(shared).sort().map((hash) => [hash, shared[hash]]));
  const recorded = snapshot.records ?? CURRENT_RECORDS;
  const records = Object.keys(recorded).filter((key) => recorded[key as keyof SnapshotRecords] && (key !== 'groups' || snapshot.groups));
  return `${JSON.stringify({ version: snapshot.version, records, tools, ...(snapshot.groups && { groups: snapshot.groups }), ...(Object.keys(table).length > 0 && { shared: table }) }, null, 2)}\n`;
}

/** A schema's stand-in when it occurs more than once: `{ "$shared": "<hash>" }`, its content put in the table. */
function intern(schema: JsonSchema, counts: ReadonlyMap<string, number>, shared: Record<string, JsonSchema>): JsonSchema {
  const text = JSON.stringify(schema);
  if ((counts.get(text) ?? 0) < 2) return schema;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  shared[hash] = schema;
  return { $shared: hash };
}

function countBy(schemas: readonly JsonSchema[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const schema of schemas) {
    const text = JSON.stringify(schema);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return counts;
}

function schemasOf(tool: ToolEntry): JsonSchema[] {
  return [tool.inputSchema, ...(tool.outputSchema ? [tool.outputSchema] : [])];
}

function mapSchemas(tool: ToolEntry, map: (schema: JsonSchema) => JsonSchema): ToolEntry {
  return { ...tool, inputSchema: map(tool.inputSchema), ...(tool.outputSchema && { outputSchema: map(tool.outputSchema) }) };
}

function defsOf(schema: JsonSchema): Record<string, JsonSchema> {
  const defs = schema['$defs'];
  return typeof defs === 'object' && defs !== null ? (defs as Record<string, JsonSchema>) : {};
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
  const table = (parsed as { shared?: Record<string, JsonSchema> }).shared ?? {};
  const expand = (schema: JsonSchema): JsonSchema => {
    const hash = schema['$shared'];
    if (hash === undefined) return schema;
    if (typeof hash !== 'string' || !Object.hasOwn(table, hash)) {
      throw new Error(`${file} refers to the shared schema ${JSON.stringify(hash)}, which its "shared" table does not hold. Restore it from git, or delete it and run the contract target to write it again.`);
    }
    return table[hash];
  };
  const tools = snapshot.tools!.map((tool) =>
    mapSchemas(tool, (schema) => {
      const whole = expand(schema);
      const defs = defsOf(whole);
      return Object.keys(defs).length === 0 ? whole : { ...whole, $defs: Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, expand(def)])) };
    }),
  );
  const records = (parsed as { records?: unknown }).records;
  const recorded = (key: keyof SnapshotRecords) => Array.isArray(records) && records.includes(key);
  const groups = (parsed as { groups?: unknown }).groups;
  if (recorded('groups') && !(Array.isArray(groups) && groups.every((group) => typeof group?.name === 'string'))) {
    throw new Error(`${file} records groups, but its "groups" is not a list of { name, description }. Restore it from git, or delete it and run the contract target to write it again.`);
  }
  return { version: snapshot.version, tools, ...(recorded('groups') && { groups: groups as GroupEntry[] }), records: { credentialHeaders: recorded('credentialHeaders'), groups: recorded('groups') } };
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
