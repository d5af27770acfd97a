import { Type } from 'typebox';
import type { TSchema } from 'typebox' with { 'resolution-mode': 'import' };
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
}

/**
 * A class's schema. A class referenced from more than one place in it (an `Address` as both `from`
 * and `to`, a `User` in every item of an API's answers) is written once under `$defs` and referred
 * to with a local `$ref`, so the schema grows with its distinct classes, not with its paths; a class
 * used once stays inline, where a reader expects it.
 */
export function emitClass(model: ClassModel, direction: SchemaDirection, options: Record<string, unknown> = {}): TSchema {
  const shared = sharedClasses(model.fields.map((field) => field.type), model);
  const emission: Emission = { direction, shared };
  return withDefs(emitClassBody(model, emission, options), emission);
}

/** A schema with the `$defs` its emission shares, when it shares any. */
function withDefs(schema: TSchema, emission: Emission): TSchema {
  if (emission.shared.size === 0) return schema;
  const defs: Record<string, TSchema> = {};
  for (const [sharedModel, key] of emission.shared) defs[key] = emitClassBody(sharedModel, emission);
  return { ...schema, $defs: defs } as TSchema;
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

function emitClassBody(model: ClassModel, emission: Emission, options: Record<string, unknown> = {}): TSchema {
  const { direction } = emission;
  const defaults = direction === 'input' ? readDefaults(model) : undefined;
  const properties: Record<string, TSchema> = {};
  for (const field of model.fields) {
    const schema = emitField(field, emission, defaults?.[field.name]);
    properties[field.name] = field.optional ? Type.Optional(schema) : schema;
  }
  return Type.Object(properties, {
    title: model.name,
    ...(model.description !== undefined && { description: model.description }),
    ...(direction === 'input' && { additionalProperties: false }),
    ...options,
  });
}

function emitField(field: FieldModel, emission: Emission, initialValue: unknown): TSchema {
  const defaultValue = initialValue ?? field.advertisedDefault;
  const annotations = {
    ...(field.description !== undefined && { description: field.description }),
    ...(field.examples !== undefined && { examples: field.examples }),
    ...(field.deprecated && { deprecated: true }),
    ...(defaultValue !== undefined && { default: defaultValue }),
  };
  if (field.nullable) {
    const value = field.type.kind === 'array' ? Type.Array(emitIn(field.type.items, emission, field.keywords.items), field.keywords.value) : emitIn(field.type, emission, field.keywords.value);
    return Type.Union([value, Type.Null()], annotations);
  }
  if (field.type.kind === 'array') {
    const items = emitIn(field.type.items, emission, field.keywords.items);
    return Type.Array(items, { ...field.keywords.value, ...annotations });
  }
  return emitIn(field.type, emission, { ...field.keywords.value, ...annotations });
}

/** The schema of each kind that has no parts of its own. */
const SCALARS: Record<string, (options: Record<string, unknown>) => TSchema> = {
  string: (options) => Type.String(options),
  number: (options) => Type.Number(options),
  integer: (options) => Type.Integer(options),
  boolean: (options) => Type.Boolean(options),
  date: (options) => Type.String({ format: 'date-time', ...options }),
  'json-object': (options) => Type.Unsafe({ type: 'object', ...options }),
};

/** A type's schema on its own (a union's arm, say): any class in it is emitted as a root, with its own `$defs`. */
export function emitType(type: TypeModel, direction: SchemaDirection, options: Record<string, unknown> = {}): TSchema {
  if (type.kind === 'object') return emitClass(type.model, direction, options);
  const emission: Emission = { direction, shared: sharedClasses([type]) };
  return withDefs(emitIn(type, emission, options), emission);
}

function emitIn(type: TypeModel, emission: Emission, options: Record<string, unknown> = {}): TSchema {
  if (Object.hasOwn(SCALARS, type.kind)) return SCALARS[type.kind]!(options);
  switch (type.kind) {
    case 'enum': {
      const types = new Set(type.values.map((value) => typeof value));
      const jsonType = types.size === 1 ? (types.has('string') ? 'string' : 'number') : undefined;
      return Type.Unsafe({ ...(jsonType && { type: jsonType }), enum: [...type.values], ...options });
    }
    case 'object': {
      const key = emission.shared.get(type.model);
      if (key !== undefined) return Type.Unsafe({ $ref: `#/$defs/${key}`, ...options });
      return emitClassBody(type.model, emission, options);
    }
    case 'array':
      return Type.Array(emitIn(type.items, emission), options);
    case 'union':
      return Type.Union(
        type.arms.map((arm) => emitIn(arm, emission)),
        options,
      );
    case 'schema':
      return Object.keys(options).length ? Type.Unsafe({ ...type.schema, ...options }) : type.schema;
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
