import { isDeepStrictEqual } from 'node:util';
import { appendPointer as pointer } from '../utils/json-pointer';
import { change, type Change } from './change';
import type { RuleId } from './rules';

/** Inputs are what clients send; outputs are what they read. Each rule reads the other way round. */
export type Direction = 'input' | 'output';
export type JsonSchema = Record<string, unknown>;

/** The keywords the framework's schema emitter produces; any other keyword that changes is reported as unknown. */
const ANNOTATIONS = ['title', 'description', 'default', 'deprecated', 'examples'] as const;
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'] as const;
/** Added or changed, these may refuse values the old schema took; removed, they refuse none. */
const EXACT_LIMITS = ['pattern', 'format'] as const;
const STRUCTURE = ['type', 'enum', 'properties', 'required', 'items', 'anyOf', 'uniqueItems', 'additionalProperties'] as const;
/** `$defs` and `$ref` are how a schema shares a class; they are followed, not compared as keywords. */
const KNOWN = new Set<string>([...ANNOTATIONS, ...LOWER_BOUNDS, ...UPPER_BOUNDS, ...EXACT_LIMITS, ...STRUCTURE, '$defs', '$ref']);

interface Scope {
  tool: string;
  direction: Direction;
  changes: Change[];
  roots: { before: JsonSchema; after: JsonSchema };
  /** Pairs of shared classes (`$ref` before|after) already compared: each is reported once, at its first path. */
  comparedRefs: Set<string>;
}

interface Arm {
  schema: JsonSchema;
  path: string;
}

/** A schema with its null arm taken out: one schema, or a union of two or more arms. */
interface Node {
  schema: JsonSchema;
  nullable: boolean;
  arms?: Arm[];
}

/**
 * Compares one tool's input or output schema, as advertised before and after, and returns every
 * difference classified by direction. It walks the inlined schemas the server sends: objects,
 * arrays, unions (matched by title) and nullable types, recursively.
 */
export function compareSchemas(tool: string, direction: Direction, before: JsonSchema, after: JsonSchema): Change[] {
  const scope: Scope = { tool, direction, changes: [], roots: { before, after }, comparedRefs: new Set() };
  compareNode(scope, before, after, '');
  return scope.changes;
}

function compareNode(scope: Scope, before: JsonSchema, after: JsonSchema, path: string): void {
  const old = followRef(scope.roots.before, before);
  const current = followRef(scope.roots.after, after);
  if (old.ref !== undefined && current.ref !== undefined) {
    const pair = `${old.ref}|${current.ref}`;
    if (scope.comparedRefs.has(pair)) return;
    scope.comparedRefs.add(pair);
  }
  const was = normalize(scope.roots.before, old.schema, path);
  const now = normalize(scope.roots.after, current.schema, path);
  if (!was.nullable && now.nullable) report(scope, path, ['input-null-accepted', 'output-became-nullable'], 'became nullable');
  if (was.nullable && !now.nullable) report(scope, path, ['input-null-refused', 'output-no-longer-nullable'], 'no longer nullable');
  if (was.arms || now.arms) compareUnion(scope, was, now, path);
  else compareSingle(scope, was.schema, now.schema, path);
}

/** A local `$ref` (`#/$defs/Address`) replaced by what it points to, its sibling annotations kept; the ref is returned too. */
function followRef(root: JsonSchema, schema: JsonSchema): { schema: JsonSchema; ref?: string } {
  let current = schema;
  let ref: string | undefined;
  for (let hops = 0; typeof current['$ref'] === 'string' && hops < 32; hops++) {
    ref = current['$ref'] as string;
    const key = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
    const target = key === undefined ? undefined : ((root['$defs'] ?? {}) as Record<string, JsonSchema>)[decodeURIComponent(key)];
    if (target === undefined) return { schema: current, ref };
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return { schema: current, ref };
}

/** The framework writes `T | null` as `anyOf: [T, { type: 'null' }]` with the annotations on the union. */
function normalize(root: JsonSchema, schema: JsonSchema, path: string): Node {
  let nullable = false;
  let own = schema;
  if (Array.isArray(own['type']) && own['type'].includes('null')) {
    nullable = true;
    const rest = (own['type'] as string[]).filter((type) => type !== 'null');
    own = { ...own, type: rest.length === 1 ? rest[0] : rest };
  }
  if (!Array.isArray(own['anyOf'])) return { schema: own, nullable };
  const arms: Arm[] = [];
  (own['anyOf'] as JsonSchema[]).forEach((arm, index) => {
    if (arm['type'] === 'null') nullable = true;
    // An arm that is a shared class is matched by what it points to (its title), so it is followed here.
    else arms.push({ schema: followRef(root, arm).schema, path: pointer(path, 'anyOf', index) });
  });
  const { anyOf: _anyOf, ...wrapper } = own;
  if (arms.length === 1) return { schema: { ...arms[0].schema, ...wrapper }, nullable };
  return { schema: wrapper, nullable, arms };
}

function compareUnion(scope: Scope, was: Node, now: Node, path: string): void {
  const before = was.arms ?? [{ schema: was.schema, path }];
  const after = now.arms ?? [{ schema: now.schema, path }];
  if (was.arms && now.arms) compareAnnotations(scope, wrapperAnnotations(was), wrapperAnnotations(now), path);
  const { pairs, removed, added } = matchArms(before, after);
  for (const [old, current] of pairs) compareNode(scope, old.schema, current.schema, current.path);
  // The tool's own result union is `[Result, ToolError]`; its error arm has rules of its own.
  const errorArm = (arm: Arm) => scope.direction === 'output' && path === '' && isToolErrorSchema(arm.schema);
  for (const arm of removed) {
    if (errorArm(arm)) report(scope, arm.path, ['error-arm-removed', 'error-arm-removed'], 'ToolError arm removed');
    else report(scope, arm.path, ['input-union-arm-removed', 'output-union-arm-removed'], `arm ${armLabel(arm.schema)} removed`);
  }
  for (const arm of added) {
    if (errorArm(arm)) report(scope, arm.path, ['error-arm-added', 'error-arm-added'], 'ToolError arm added');
    else report(scope, arm.path, ['input-union-arm-added', 'output-union-arm-added'], `arm ${armLabel(arm.schema)} added`);
  }
}

/** Arms match by title (the class name), else by type; one arm left on each side is the same arm, changed. */
function matchArms(before: Arm[], after: Arm[]): { pairs: [Arm, Arm][]; removed: Arm[]; added: Arm[] } {
  const added = [...after];
  const removed: Arm[] = [];
  const pairs: [Arm, Arm][] = [];
  for (const arm of before) {
    const index = added.findIndex((candidate) => armLabel(candidate.schema) === armLabel(arm.schema));
    if (index < 0) removed.push(arm);
    else pairs.push([arm, added.splice(index, 1)[0]]);
  }
  if (removed.length === 1 && added.length === 1) pairs.push([removed.pop()!, added.pop()!]);
  return { pairs, removed, added };
}

function armLabel(schema: JsonSchema): string {
  if (typeof schema['title'] === 'string') return schema['title'];
  return `${kindLabel(kindOf(schema))}`;
}

function isToolErrorSchema(schema: JsonSchema): boolean {
  const required = (schema['required'] as string[] | undefined) ?? [];
  return required.includes('error') && required.includes('detail');
}

/** A union's own annotations, without the ones it copies from its first arm (the result's title and description). */
function wrapperAnnotations(node: Node): JsonSchema {
  const first = node.arms![0].schema;
  return Object.fromEntries(ANNOTATIONS.filter((key) => node.schema[key] !== undefined && !isDeepStrictEqual(node.schema[key], first[key])).map((key) => [key, node.schema[key]]));
}

function compareSingle(scope: Scope, before: JsonSchema, after: JsonSchema, path: string): void {
  compareAnnotations(scope, before, after, path);
  const was = kindOf(before);
  const now = kindOf(after);
  const widened = contains(now, was);
  const narrowed = contains(was, now);
  const summary = `type ${kindLabel(was)} → ${kindLabel(now)}`;
  if (!widened && !narrowed) {
    report(scope, path, ['input-type-changed', 'output-type-changed'], summary);
    return;
  }
  if (widened && !narrowed) report(scope, path, ['input-type-widened', was.enum && !now.enum ? 'output-enum-lifted' : 'output-type-changed'], summary);
  if (narrowed && !widened) report(scope, path, ['input-type-narrowed', 'output-type-narrowed'], summary);
  if (was.enum && now.enum) compareEnum(scope, before['enum'] as unknown[], after['enum'] as unknown[], path);
  compareConstraints(scope, before, after, path);
  if (now.base === 'object') compareObject(scope, before, after, path);
  if (now.base === 'array') compareNode(scope, (before['items'] ?? {}) as JsonSchema, (after['items'] ?? {}) as JsonSchema, pointer(path, 'items'));
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!KNOWN.has(key) && !isDeepStrictEqual(before[key], after[key])) report(scope, path, ['keyword-changed', 'keyword-changed'], `${key} ${show(before[key])} → ${show(after[key])}`);
  }
}

interface Kind {
  /** The JSON type, or `any` for a schema without one. */
  base: string;
  enum: boolean;
}

function kindOf(schema: JsonSchema): Kind {
  const type = schema['type'];
  const base = typeof type === 'string' ? type : Array.isArray(type) ? type.join('|') : 'any';
  return { base, enum: Array.isArray(schema['enum']) };
}

function kindLabel(kind: Kind): string {
  return kind.enum ? `enum of ${kind.base}` : kind.base;
}

/** Whether every value of kind `inner` is a value of kind `outer` (enum values are compared apart). */
function contains(outer: Kind, inner: Kind): boolean {
  const base = outer.base === inner.base || outer.base === 'any' || (outer.base === 'number' && inner.base === 'integer');
  return base && (!outer.enum || inner.enum);
}

function compareEnum(scope: Scope, before: unknown[], after: unknown[], path: string): void {
  const has = (values: unknown[], value: unknown) => values.some((v) => isDeepStrictEqual(v, value));
  for (const value of before.filter((v) => !has(after, v))) report(scope, path, ['input-enum-value-removed', 'output-enum-value-removed'], `enum value ${show(value)} removed`);
  for (const value of after.filter((v) => !has(before, v))) report(scope, path, ['input-enum-value-added', 'output-enum-value-added'], `enum value ${show(value)} added`);
}

function compareConstraints(scope: Scope, before: JsonSchema, after: JsonSchema, path: string): void {
  const limit = (key: string, tighter: boolean) => {
    const summary = `${key} ${show(before[key])} → ${show(after[key])}`;
    if (tighter) report(scope, path, ['input-constraint-tightened', 'output-constraint-tightened'], summary);
    else report(scope, path, ['input-constraint-loosened', 'output-constraint-loosened'], summary);
  };
  for (const key of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const was = before[key] as number | undefined;
    const now = after[key] as number | undefined;
    if (was === now) continue;
    const lower = (LOWER_BOUNDS as readonly string[]).includes(key);
    // A bound that appears is tighter; one that goes is looser; one that moves is tighter when it closes in.
    limit(key, was === undefined || (now !== undefined && (lower ? now > was : now < was)));
  }
  for (const key of EXACT_LIMITS) if (!isDeepStrictEqual(before[key], after[key])) limit(key, after[key] !== undefined);
  if ((before['uniqueItems'] === true) !== (after['uniqueItems'] === true)) limit('uniqueItems', after['uniqueItems'] === true);
  if ((before['additionalProperties'] === false) !== (after['additionalProperties'] === false)) limit('additionalProperties', after['additionalProperties'] === false);
}

function compareObject(scope: Scope, before: JsonSchema, after: JsonSchema, path: string): void {
  const was = (before['properties'] ?? {}) as Record<string, JsonSchema>;
  const now = (after['properties'] ?? {}) as Record<string, JsonSchema>;
  const wasRequired = new Set((before['required'] as string[] | undefined) ?? []);
  const nowRequired = new Set((after['required'] as string[] | undefined) ?? []);
  for (const name of Object.keys(was)) {
    const at = pointer(path, 'properties', name);
    if (!(name in now)) {
      report(scope, at, ['input-property-removed', 'output-property-removed'], 'removed');
      continue;
    }
    if (!wasRequired.has(name) && nowRequired.has(name)) report(scope, at, ['input-property-became-required', 'output-property-became-required'], 'optional → required');
    if (wasRequired.has(name) && !nowRequired.has(name)) report(scope, at, ['input-property-became-optional', 'output-property-became-optional'], 'required → optional');
    compareNode(scope, was[name], now[name], at);
  }
  for (const name of Object.keys(now).filter((n) => !(n in was))) {
    const required = nowRequired.has(name);
    const rule = required ? 'input-required-property-added' : 'input-optional-property-added';
    report(scope, pointer(path, 'properties', name), [rule, 'output-property-added'], `added (${required ? 'required' : 'optional'})`);
  }
}

function compareAnnotations(scope: Scope, before: JsonSchema, after: JsonSchema, path: string): void {
  const differs = (key: string) => !isDeepStrictEqual(before[key], after[key]);
  if (differs('description')) {
    const text = { was: before['description'] as string | undefined, now: after['description'] as string | undefined };
    report(scope, path, ['description-changed', 'description-changed'], `description ${text.was === undefined ? 'added' : text.now === undefined ? 'removed' : 'changed'}`, text);
  }
  if (differs('title')) report(scope, path, ['title-changed', 'title-changed'], `title ${show(before['title'])} → ${show(after['title'])}`);
  if (differs('default')) report(scope, path, ['default-changed', 'default-changed'], `default ${show(before['default'])} → ${show(after['default'])}`);
  if (differs('deprecated')) report(scope, path, ['deprecation-changed', 'deprecation-changed'], after['deprecated'] === true ? 'deprecated' : 'no longer deprecated');
  if (differs('examples')) report(scope, path, ['examples-changed', 'examples-changed'], 'examples changed');
}

/** Picks the rule for the scope's direction: `[input rule, output rule]`. */
function report(scope: Scope, path: string, [input, output]: [RuleId, RuleId], summary: string, text?: { was?: string; now?: string }): void {
  scope.changes.push(change(scope.tool, scope.direction, path, scope.direction === 'input' ? input : output, summary, text));
}

export function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}
