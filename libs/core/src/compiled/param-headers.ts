import { decodeParamValue, paramValueText, sameParamValue } from '../wire/sdk-mirror';

/** The annotation that mirrors an argument into an `Mcp-Param-{name}` header (SEP-2243). */
export const X_MCP_HEADER = 'x-mcp-header';
/** RFC 9110 `token`: the characters an HTTP field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are not statically reachable through `properties` alone. */
/** Keywords whose value names its subschemas (an object of them). */
const NAMED_SUBSCHEMAS = new Set(['$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
const ELSEWHERE = ['items', 'prefixItems', 'additionalProperties', 'patternProperties', 'contains', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', '$defs', 'definitions', 'dependentSchemas'];

/** One argument a 2026-07-28 client mirrors into a header. */
export interface ParamHeader {
  /** The chain of `properties` keys from the root to the argument. */
  readonly path: readonly string[];
  /** The name part: the header is `Mcp-Param-{header}`. */
  readonly header: string;
  readonly type: 'string' | 'integer' | 'boolean';
}

/**
 * The `x-mcp-header` annotations of an input schema, or the first problem that makes the tool
 * definition invalid (clients drop such a tool): not on a primitive, not reachable through
 * `properties` alone, not an HTTP token, or not unique in any case.
 */
export function paramHeadersOf(schema: object): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const problem = visit(schema as Record<string, unknown>, [], true, found);
  if (problem) return problem;
  const seen = new Map<string, string>();
  for (const { header } of found) {
    const prior = seen.get(header.toLowerCase());
    if (prior !== undefined) return `the header names '${prior}' and '${header}' are the same in any case; each must be unique`;
    seen.set(header.toLowerCase(), header);
  }
  return found;
}

function visit(node: Record<string, unknown>, path: string[], reachable: boolean, found: ParamHeader[]): string | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const problem = X_MCP_HEADER in node ? annotation(node, path, reachable, found) : undefined;
  if (problem) return problem;
  for (const [step, child, stillReachable] of children(node, reachable)) {
    const below = visit(child, [...path, step], stillReachable, found);
    if (below) return below;
  }
  return undefined;
}

/** Checks one annotated schema and records it; the problem that makes it invalid, if any. */
function annotation(node: Record<string, unknown>, path: string[], reachable: boolean, found: ParamHeader[]): string | undefined {
  const where = path.length ? `'${path.join('.')}'` : 'the schema root';
  const header = node[X_MCP_HEADER];
  if (!reachable || path.length === 0) return `${where} has x-mcp-header, which may only mark a property reached through 'properties' alone (not under items, anyOf/oneOf/allOf, if/then/else, $ref or a nullable union)`;
  if (typeof header !== 'string' || !TOKEN.test(header)) return `${where} has x-mcp-header ${JSON.stringify(header)}, which is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~)`;
  if (typeof node['type'] !== 'string' || !PRIMITIVES.has(node['type'])) return `${where} has x-mcp-header but is of type ${JSON.stringify(node['type'] ?? 'any')}; only string, integer and boolean values can be mirrored into a header`;
  found.push({ path: [...path], header, type: node['type'] as ParamHeader['type'] });
  return undefined;
}

/** A schema's subschemas with the step to each: its `properties` (reachable as it is), then every other keyword's (not reachable). */
function children(node: Record<string, unknown>, reachable: boolean): [string, Record<string, unknown>, boolean][] {
  const found: [string, Record<string, unknown>, boolean][] = [];
  const properties = node['properties'];
  if (properties && typeof properties === 'object') for (const [key, child] of Object.entries(properties)) found.push([key, child as Record<string, unknown>, reachable]);
  for (const keyword of ELSEWHERE) {
    const sub = node[keyword];
    if (!sub || typeof sub !== 'object') continue;
    const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) ? Object.values(sub) : [sub];
    for (const branch of branches) found.push([`<${keyword}>`, branch as Record<string, unknown>, false]);
  }
  return found;
}


/**
 * Why a 2026-07-28 `tools/call`'s `Mcp-Param-*` headers disagree with its arguments, or undefined
 * when they agree: a value in the body needs its header, equal after Base64 decoding (`=?base64?…?=`).
 * A value absent or null needs no header. Decoded and compared as the SDK's own check does
 * (wire/sdk-mirror.ts): an integer numerically (`42.0` is 42), a legal U+FFFD as any character.
 */
export function paramHeaderMismatch(headers: readonly ParamHeader[], args: unknown, headerValue: (name: string) => string | undefined): { header: string; problem: string } | undefined {
  for (const declared of headers) {
    const value = valueAt(args, declared.path);
    if (value === undefined || value === null) continue;
    // As the SDK's own check (validateMcpParamHeaders): a value no header can carry is not checked.
    const text = paramValueText(value);
    if (text === undefined) continue;
    const name = `Mcp-Param-${declared.header}`;
    const raw = headerValue(name.toLowerCase());
    const mismatch = (problem: string) => ({ header: name, problem });
    if (raw === undefined) return mismatch(`the body carries ${declared.path.join('.')} but the ${name} header is absent`);
    const sent = decodeParamValue(raw.trim());
    if (sent === undefined) return mismatch(`the ${name} header carries an invalid Base64 sentinel value (not canonical Base64, or not UTF-8)`);
    if (!sameParamValue(declared.type, sent, value, text)) return mismatch(`the ${name} header says ${JSON.stringify(sent.slice(0, 100))} but the body carries ${declared.path.join('.')}=${JSON.stringify(value).slice(0, 100)}`);
  }
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
