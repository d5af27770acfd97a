import { Type } from 'typebox';
import type { SchemaNode } from '../types/schema-node';
import type { ClassModel, FieldModel, TypeModel } from './type-model';

/**
 * Output schemas are open (a field added later is not a breaking change for strict clients);
 * input schemas are closed (an undeclared argument, such as a credential, is refused).
 */
export type SchemaDirection = 'output' | 'input';

/** How one schema is being emitted: its direction, and the classes it shares through `$defs`. */
interface Emission {
  direction: SchemaDirection;
  /** Classes referenced from two or more places, by their `$defs` key. */
  shared: ReadonlyMap<ClassModel, string>;
  /** Set when only the levels down to a depth are written (see emitClassWithin). */
  cut?: CutState;
  /** How schema nodes are made: TypeBox's, or plain JSON for schemas that are only advertised. */
  build: Builders;
}

/** The schema nodes an emission makes. Both make the same JSON, key for key. */
interface Builders {
  object(properties: Record<string, SchemaNode>, optional: ReadonlySet<string>, options: Record<string, unknown>): SchemaNode;
  array(items: SchemaNode, options: Record<string, unknown>): SchemaNode;
  union(arms: SchemaNode[], options: Record<string, unknown>): SchemaNode;
  scalar(kind: string, options: Record<string, unknown>): SchemaNode;
  unsafe(schema: Record<string, unknown>): SchemaNode;
}

/** TypeBox's builders: what validators are compiled from. */
const TYPEBOX: Builders = {
  object: (properties, optional, options) =>
    Type.Object(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, optional.has(name) ? Type.Optional(schema) : schema])), options),
  array: (items, options) => Type.Array(items, options),
  union: (arms, options) => Type.Union(arms, options),
  scalar: (kind, options) => SCALARS[kind]!(options),
  unsafe: (schema) => Type.Unsafe(schema),
};

/**
 * Plain JSON in TypeBox's shape, for schemas that are only advertised (cut to a budget): TypeBox
 * keeps hidden bookkeeping on every node, most of a cut emission's cost on a large catalog.
 */
const PLAIN: Builders = {
  object: (properties, optional, options) => {
    const required = Object.keys(properties).filter((name) => !optional.has(name));
    return { type: 'object', ...(required.length > 0 && { required }), properties, ...options } as SchemaNode;
  },
  array: (items, options) => ({ type: 'array', items, ...options }) as SchemaNode,
  union: (arms, options) => ({ anyOf: arms, ...options }) as SchemaNode,
  scalar: (kind, options) => PLAIN_SCALARS[kind]!(options),
  unsafe: (schema) => schema as SchemaNode,
};

/** Where a schema is cut, and what the cut has cost so far. */
interface CutState {
  depth: number;
  note: string;
  /** The shallowest depth each shared class is referenced at, within the depth: its body is written as if there. */
  defDepth: ReadonlyMap<ClassModel, number>;
  maxNodes: number;
  nodes: number;
  cutAny: boolean;
}

/** Thrown (and caught in emitClassWithin) when a cut emission outgrows its node allowance. */
const TOO_LARGE = Symbol('too large');

/**
 * A class's schema. A class referenced from more than one place in it (an `Address` as both `from`
 * and `to`, a `User` in every item of an API's answers) is written once under `$defs` and referred
 * to with a local `$ref`, so the schema grows with its distinct classes, not with its paths; a class
 * used once stays inline, where a reader expects it.
 */
export function emitClass(model: ClassModel, direction: SchemaDirection, options: Record<string, unknown> = {}): SchemaNode {
  const shared = sharedClasses(model.fields.map((field) => field.type), model);
  const emission: Emission = { direction, shared, build: TYPEBOX };
  return withDefs(emitClassBody(model, emission, options), emission);
}

/** A schema with the `$defs` its emission shares, when it shares any. */
function withDefs(schema: SchemaNode, emission: Emission): SchemaNode {
  if (emission.shared.size === 0) return schema;
  const defs: Record<string, SchemaNode> = {};
  for (const [sharedModel, key] of emission.shared) defs[key] = emitClassBody(sharedModel, emission);
  return { ...schema, $defs: defs } as SchemaNode;
}

/**
 * The classes a schema reaches from two or more places, in the order first met, keyed by a unique
 * name. Every class on a cycle is reached twice (its way back counts), so recursive types go to
 * `$defs` too, and stay recursive through their `$ref`; a root class counts its own top as a place.
 */
function sharedClasses(start: readonly TypeModel[], root?: ClassModel): Map<ClassModel, string> {
  const sites = new Map<ClassModel, number>(root ? [[root, 1]] : []);
  const walk = (type: TypeModel): void => {
    if (type.kind === 'array') walk(type.items);
    else if (type.kind === 'union') type.arms.forEach(walk);
    else if (type.kind === 'object') {
      const seen = sites.get(type.model) ?? 0;
      sites.set(type.model, seen + 1);
      // Each class's own fields are walked once: counting stays linear however often it is reached.
      if (seen === 0) type.model.fields.forEach((field) => walk(field.type));
    }
  };
  start.forEach(walk);
  const shared = new Map<ClassModel, string>();
  const taken = new Set<string>();
  for (const [model, count] of sites) {
    if (count < 2) continue;
    const base = model.name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'Class';
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    shared.set(model, key);
  }
  return shared;
}

/** A class's schema written down to `depth` levels (see emitClassWithin), with how it went. */
export interface CutEmission {
  schema: SchemaNode;
  /** Whether anything was cut: when not, this is the whole schema. */
  cut: boolean;
}

/**
 * A class's schema with every object or array deeper than `depth` written as an open value of the
 * same JSON type, whose description (`note`) says what was cut: the root's fields are at depth 1,
 * an array's items one deeper than the array, a union's arms at the union's depth, and a shared
 * class under `$defs` is written as deep as its shallowest reference. Nothing below the cut is
 * visited, so the cost follows what is written, not the whole class graph; past `maxNodes`
 * schema nodes the emission stops and gives undefined (a schema that large is over any budget it
 * was meant for). Arrays of scalars are never cut: they stay small.
 */
export function emitClassWithin(model: ClassModel, direction: SchemaDirection, depth: number, note: string, maxNodes: number): CutEmission | undefined {
  return classLevels(model, direction, note)(depth, maxNodes);
}

/**
 * emitClassWithin for one class at any depth, its shared classes found once: a budget is met by
 * trying depths one after another.
 */
export function classLevels(model: ClassModel, direction: SchemaDirection, note: string): (depth: number, maxNodes: number) => CutEmission | undefined {
  const shared = sharedClasses(model.fields.map((field) => field.type), model);
  return (depth, maxNodes) => emitWithin(model, direction, shared, depth, note, maxNodes);
}

function emitWithin(model: ClassModel, direction: SchemaDirection, shared: ReadonlyMap<ClassModel, string>, depth: number, note: string, maxNodes: number): CutEmission | undefined {
  const cut: CutState = { depth, note, defDepth: sharedDepthsWithin(model, shared, depth), maxNodes, nodes: 0, cutAny: false };
  const emission: Emission = { direction, shared, cut, build: PLAIN };
  try {
    const body = emitClassBody(model, emission, {}, 0);
    const defs: Record<string, SchemaNode> = {};
    for (const [sharedModel, key] of shared) {
      const at = cut.defDepth.get(sharedModel);
      if (at !== undefined) defs[key] = emitClassBody(sharedModel, emission, {}, at);
    }
    return { schema: Object.keys(defs).length > 0 ? ({ ...body, $defs: defs } as SchemaNode) : body, cut: cut.cutAny };
  } catch (error) {
    if (error === TOO_LARGE) return undefined;
    throw error;
  }
}

/** Whether a type has parts of its own that a cut at `depth` would open, were it at `at`. */
function opensAt(type: TypeModel, at: number, cut: CutState | undefined): boolean {
  return cut !== undefined && at > cut.depth && isStructured(type);
}

function isStructured(type: TypeModel): boolean {
  switch (type.kind) {
    case 'object':
      return true;
    case 'array':
      return isStructured(type.items);
    case 'union':
      return type.arms.some(isStructured);
    case 'schema':
      return ['properties', 'items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', '$ref'].some((key) => Object.hasOwn(type.schema, key));
    default:
      return false;
  }
}

/** An open value in place of a cut part: the same JSON type (so values still validate), and a note of what was there. */
function openValue(type: TypeModel, cut: CutState): SchemaNode {
  cut.cutAny = true;
  const raw = type.kind === 'schema' ? (type.schema as Record<string, unknown>) : undefined;
  const jsonType = type.kind === 'object' || raw?.['type'] === 'object' || raw?.['properties'] !== undefined ? 'object' : type.kind === 'array' || raw?.['type'] === 'array' ? 'array' : undefined;
  const what = type.kind === 'object' ? `${type.model.name}, ` : typeof raw?.['title'] === 'string' ? `${raw['title']}, ` : '';
  return { ...(jsonType && { type: jsonType }), description: `(${what}${cut.note})` } as SchemaNode;
}

/** The shallowest depth, within `depth`, at which each shared class is referenced. */
function sharedDepthsWithin(root: ClassModel, shared: ReadonlyMap<ClassModel, string>, depth: number): Map<ClassModel, number> {
  const found = new Map<ClassModel, number>();
  const visitFields = (model: ClassModel, at: number): void => model.fields.forEach((field) => visit(field.type, at + 1));
  const visit = (type: TypeModel, at: number): void => {
    if (at > depth && isStructured(type)) return;
    if (type.kind === 'array') visit(type.items, at + 1);
    else if (type.kind === 'union') type.arms.forEach((arm) => visit(arm, at));
    else if (type.kind === 'object') {
      if (shared.has(type.model)) {
        // Depths only fall, so a class met again shallower is walked again, and this settles.
        if ((found.get(type.model) ?? Infinity) <= at) return;
        found.set(type.model, at);
      }
      visitFields(type.model, at);
    }
  };
  visitFields(root, 0);
  return found;
}

function counted(emission: Emission): void {
  const { cut } = emission;
  if (cut && ++cut.nodes > cut.maxNodes) throw TOO_LARGE;
}

function emitClassBody(model: ClassModel, emission: Emission, options: Record<string, unknown> = {}, at = 0): SchemaNode {
  const { direction, build } = emission;
  counted(emission);
  const defaults = direction === 'input' ? readDefaults(model) : undefined;
  const properties: Record<string, SchemaNode> = {};
  const optional = new Set<string>();
  for (const field of model.fields) {
    properties[field.name] = emitField(field, emission, defaults?.[field.name], at + 1);
    if (field.optional) optional.add(field.name);
  }
  return build.object(properties, optional, {
    title: model.name,
    ...(model.description !== undefined && { description: model.description }),
    ...(direction === 'input' && { additionalProperties: false }),
    ...options,
  });
}

function emitField(field: FieldModel, emission: Emission, initialValue: unknown, at: number): SchemaNode {
  if (opensAt(field.type, at, emission.cut)) return openValue(field.type, emission.cut!);
  counted(emission);
  const { build } = emission;
  const defaultValue = initialValue ?? field.advertisedDefault;
  const annotations = {
    ...(field.description !== undefined && { description: field.description }),
    ...(field.examples !== undefined && { examples: field.examples }),
    ...(field.deprecated && { deprecated: true }),
    ...(defaultValue !== undefined && { default: defaultValue }),
  };
  if (field.nullable) {
    const value =
      field.type.kind === 'array' ? build.array(emitIn(field.type.items, emission, field.keywords.items, at + 1), field.keywords.value) : emitIn(field.type, emission, field.keywords.value, at);
    return build.union([value, build.scalar('null', {})], annotations);
  }
  if (field.type.kind === 'array') {
    const items = emitIn(field.type.items, emission, field.keywords.items, at + 1);
    return build.array(items, { ...field.keywords.value, ...annotations });
  }
  return emitIn(field.type, emission, { ...field.keywords.value, ...annotations }, at);
}

/** The schema of each kind that has no parts of its own. */
const SCALARS: Record<string, (options: Record<string, unknown>) => SchemaNode> = {
  string: (options) => Type.String(options),
  number: (options) => Type.Number(options),
  integer: (options) => Type.Integer(options),
  boolean: (options) => Type.Boolean(options),
  date: (options) => Type.String({ format: 'date-time', ...options }),
  'json-object': (options) => Type.Unsafe({ type: 'object', ...options }),
  null: () => Type.Null(),
};

const PLAIN_SCALARS: Record<string, (options: Record<string, unknown>) => SchemaNode> = {
  string: (options) => ({ type: 'string', ...options }) as SchemaNode,
  number: (options) => ({ type: 'number', ...options }) as SchemaNode,
  integer: (options) => ({ type: 'integer', ...options }) as SchemaNode,
  boolean: (options) => ({ type: 'boolean', ...options }) as SchemaNode,
  date: (options) => ({ type: 'string', format: 'date-time', ...options }) as SchemaNode,
  'json-object': (options) => ({ type: 'object', ...options }) as SchemaNode,
  null: () => ({ type: 'null' }) as SchemaNode,
};

/** A type's schema on its own (a union's arm, say): any class in it is emitted as a root, with its own `$defs`. */
export function emitType(type: TypeModel, direction: SchemaDirection, options: Record<string, unknown> = {}): SchemaNode {
  if (type.kind === 'object') return emitClass(type.model, direction, options);
  const emission: Emission = { direction, shared: sharedClasses([type]), build: TYPEBOX };
  return withDefs(emitIn(type, emission, options), emission);
}

function emitIn(type: TypeModel, emission: Emission, options: Record<string, unknown> = {}, at = 0): SchemaNode {
  if (opensAt(type, at, emission.cut)) return openValue(type, emission.cut!);
  counted(emission);
  const { build } = emission;
  if (Object.hasOwn(SCALARS, type.kind)) return build.scalar(type.kind, options);
  switch (type.kind) {
    case 'enum': {
      const types = new Set(type.values.map((value) => typeof value));
      const jsonType = types.size === 1 ? (types.has('string') ? 'string' : 'number') : undefined;
      return build.unsafe({ ...(jsonType && { type: jsonType }), enum: [...type.values], ...options });
    }
    case 'object': {
      const key = emission.shared.get(type.model);
      if (key !== undefined) return build.unsafe({ $ref: `#/$defs/${key}`, ...options });
      return emitClassBody(type.model, emission, options, at);
    }
    case 'array':
      return build.array(emitIn(type.items, emission, {}, at + 1), options);
    case 'union':
      return build.union(
        type.arms.map((arm) => emitIn(arm, emission, {}, at)),
        options,
      );
    case 'schema':
      return Object.keys(options).length ? build.unsafe({ ...type.schema, ...options }) : type.schema;
    default:
      throw new Error(`no schema for a type of kind '${type.kind}'`);
  }
}

/** Initial values of a fresh instance (`name = 'world'`), advertised as `default` in input schemas. */
function readDefaults(model: ClassModel): Record<string, unknown> | undefined {
  let instance: Record<string, unknown>;
  try {
    instance = new (model.cls as new () => Record<string, unknown>)();
  } catch {
    return undefined;
  }
  const defaults: Record<string, unknown> = {};
  for (const field of model.fields) {
    const value = instance[field.name];
    if (value !== undefined && isJsonValue(value)) defaults[field.name] = value;
  }
  return defaults;
}

function isJsonValue(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isJsonValue);
  return false;
}
