type Json = Record<string, unknown>;

/** A schema fitted to a budget: what to advertise, and its bytes of JSON. */
export interface BudgetFit {
  schema: unknown;
  bytes: number;
}

/**
 * A schema to advertise within `budget` bytes of JSON. Past the budget, the deepest levels
 * go first: every object or array below a depth becomes an open value of the same JSON type whose
 * description says what was cut, and the depth rises until the schema fits (objects, arrays and
 * `$defs` classes alike; a class only reachable through cut parts is dropped). Only what a tool
 * advertises is cut: the server keeps validating every result against the full schema, so a client
 * loses detail, never correctness. Schemas that fit are returned as they are.
 */
export function fitToBudget(schema: unknown, budget: number, stated = budget, fullBytes?: number): BudgetFit {
  const full = fullBytes ?? byteLength(schema);
  if (full <= budget) return { schema, bytes: full };
  // The size only grows with the depth kept: a binary search finds the deepest cut that fits in a
  // few cuts (a Stripe answer's schema is tens of levels deep, and each cut copies what it keeps).
  let low = 0;
  let high = depthOf(schema as Json) - 1;
  let best: BudgetFit | undefined;
  while (low <= high) {
    const depth = Math.floor((low + high) / 2);
    const cut = cutBelow(schema as Json, depth, stated);
    const bytes = byteLength(cut);
    if (bytes <= budget) {
      best = { schema: cut, bytes };
      low = depth + 1;
    } else {
      high = depth - 1;
    }
  }
  if (best) return best;
  // Nothing fits (a top level of many long-described arguments, as Stripe's post_payment_intents):
  // the shallowest cut, its descriptions then shortened at a word until it fits.
  const cut = cutBelow(schema as Json, 0, stated);
  let fitted: BudgetFit = { schema: cut, bytes: byteLength(cut) };
  for (const longest of [400, 200, 120, 80, 40]) {
    if (fitted.bytes <= budget) break;
    const shortened = shortenDescriptions(cut, longest);
    fitted = { schema: shortened, bytes: byteLength(shortened) };
  }
  return fitted;
}

/** Every description in a schema cut to at most `longest` characters, at a word, with an ellipsis. */
function shortenDescriptions(schema: unknown, longest: number): Json {
  const walk = (value: unknown, key?: string): unknown => {
    if (key === 'description' && typeof value === 'string' && value.length > longest) {
      const cut = value.slice(0, longest - 1);
      return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), longest / 2)).trimEnd()}…`;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (typeof value !== 'object' || value === null) return value;
    // Under `properties`, keys are names (a property called "description" is a schema, not text).
    const names = key === 'properties' || key === '$defs';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, names ? walk(v) : walk(v, k)]));
  };
  return walk(schema) as Json;
}

/**
 * A tool's input and output schemas as advertised within `budget` bytes for its whole `tools/list`
 * entry (`otherBytes` being its name, description and annotations). The output schema is cut first,
 * down to what leaves the input up to half the budget; the input schema only when that is not
 * enough (Kubernetes' `replace_*` take a whole object as their body). The server validates both in full.
 */
export function fitToolSchemas(input: unknown, output: unknown, budget: number, otherBytes: number): { input: unknown; output: unknown } {
  const inputBytes = byteLength(input);
  const outputBytes = output === undefined ? 0 : byteLength(output);
  if (inputBytes + outputBytes + otherBytes <= budget) return { input, output };
  const inputShare = Math.min(inputBytes, Math.floor(budget / 2));
  const fittedOutput = output === undefined ? undefined : fitToBudget(output, budget - otherBytes - inputShare, budget, outputBytes);
  const outputNow = fittedOutput?.bytes ?? 0;
  if (inputBytes + outputNow + otherBytes <= budget) return { input, output: fittedOutput?.schema };
  const fittedInput = fitToBudget(input, budget - otherBytes - outputNow, budget, inputBytes);
  return { input: fittedInput.schema, output: fittedOutput?.schema };
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** The children of a schema that sit one level deeper (properties, items, record values). */
function deeper(schema: Json): Json[] {
  const out: Json[] = [];
  for (const value of Object.values((schema['properties'] ?? {}) as Record<string, Json>)) out.push(value);
  if (isSchema(schema['items'])) out.push(schema['items']);
  if (isSchema(schema['additionalProperties'])) out.push(schema['additionalProperties']);
  return out;
}

/** The children at the same level (union arms). */
function alongside(schema: Json): Json[] {
  return [...((schema['anyOf'] ?? []) as Json[]), ...((schema['oneOf'] ?? []) as Json[])].filter(isSchema);
}

function isSchema(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The deepest nesting in a schema, following `$ref`s into `$defs` once each. */
function depthOf(root: Json): number {
  const defs = (root['$defs'] ?? {}) as Record<string, Json>;
  const seen = new Set<string>();
  const walk = (schema: Json, depth: number): number => {
    const ref = defKey(schema);
    if (ref !== undefined) {
      if (seen.has(ref) || !defs[ref]) return depth;
      seen.add(ref);
      return walk(defs[ref], depth);
    }
    let max = depth;
    for (const child of deeper(schema)) max = Math.max(max, walk(child, depth + 1));
    for (const arm of alongside(schema)) max = Math.max(max, walk(arm, depth));
    return max;
  };
  return walk(root, 0);
}

function defKey(schema: Json): string | undefined {
  const ref = schema['$ref'];
  return typeof ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(ref)?.[1] : undefined;
}

/** The schema with every object or array deeper than `depth` made open; `$defs` entries are cut at the shallowest depth they are used. */
function cutBelow(root: Json, depth: number, budget: number): Json {
  const defs = (root['$defs'] ?? {}) as Record<string, Json>;
  const defDepth = new Map<string, number>();
  const note = `cut to fit this tool's ${budget}-byte schema budget; the server validates it in full`;
  const cut = (schema: Json, at: number): Json => {
    const ref = defKey(schema);
    if (ref !== undefined) {
      if (at > depth) return open(defs[ref] ?? schema, note);
      if (!defDepth.has(ref) || defDepth.get(ref)! > at) defDepth.set(ref, at);
      return schema;
    }
    if (at > depth && (deeper(schema).length > 0 || alongside(schema).length > 0)) return open(schema, note);
    const out: Json = { ...schema };
    if (schema['properties']) out['properties'] = Object.fromEntries(Object.entries(schema['properties'] as Record<string, Json>).map(([name, child]) => [name, cut(child, at + 1)]));
    if (isSchema(schema['items'])) out['items'] = cut(schema['items'], at + 1);
    if (isSchema(schema['additionalProperties'])) out['additionalProperties'] = cut(schema['additionalProperties'], at + 1);
    for (const key of ['anyOf', 'oneOf']) if (Array.isArray(schema[key])) out[key] = (schema[key] as Json[]).map((arm) => cut(arm, at));
    return out;
  };
  const { $defs: _defs, ...body } = root;
  const result = cut(body, 0);
  // A class is cut at the shallowest depth it is used; classes it refers to are found as it is cut.
  const keptDefs: Record<string, Json> = {};
  const keptAt = new Map<string, number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const [key, at] of [...defDepth]) {
      // Depths only fall, so this settles: a class met again shallower is cut again, less.
      if (keptAt.get(key) === at || !defs[key]) continue;
      keptDefs[key] = cut(defs[key], at);
      keptAt.set(key, at);
      changed = true;
    }
  }
  const ordered = Object.fromEntries(Object.keys(defs).filter((key) => keptDefs[key]).map((key) => [key, keptDefs[key]]));
  return Object.keys(ordered).length > 0 ? { ...result, $defs: ordered } : result;
}

function isObjectLike(schema: Json): boolean {
  return schema['type'] === 'object' || schema['properties'] !== undefined;
}

/** An open value in place of a cut subtree: the same JSON type (so values still validate), and a description of what was there. */
function open(schema: Json, note: string): Json {
  const type = isObjectLike(schema) ? 'object' : schema['type'] === 'array' ? 'array' : undefined;
  // The class name says what was there; the cut part's own description goes with the rest of it.
  const what = typeof schema['title'] === 'string' ? `${schema['title']}, ` : '';
  return { ...(type && { type }), description: `(${what}${note})` };
}
