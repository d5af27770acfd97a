import { Type, type TSchema } from 'typebox';
import type { ClassModel, FieldModel, TypeModel } from './type-model';

/**
 * Output schemas are open (a field added later is not a breaking change for strict clients);
 * input schemas are closed (an undeclared argument, such as a credential, is refused).
 */
export type SchemaDirection = 'output' | 'input';

export function emitClass(model: ClassModel, direction: SchemaDirection, options: Record<string, unknown> = {}): TSchema {
  const defaults = direction === 'input' ? readDefaults(model) : undefined;
  const properties: Record<string, TSchema> = {};
  for (const field of model.fields) {
    const schema = emitField(field, direction, defaults?.[field.name]);
    properties[field.name] = field.optional ? Type.Optional(schema) : schema;
  }
  return Type.Object(properties, {
    title: model.name,
    ...(model.description !== undefined && { description: model.description }),
    ...(direction === 'input' && { additionalProperties: false }),
    ...options,
  });
}

function emitField(field: FieldModel, direction: SchemaDirection, defaultValue: unknown): TSchema {
  const annotations = {
    ...(field.description !== undefined && { description: field.description }),
    ...(field.examples !== undefined && { examples: field.examples }),
    ...(field.deprecated && { deprecated: true }),
    ...(defaultValue !== undefined && { default: defaultValue }),
  };
  if (field.nullable) {
    const value = field.type.kind === 'array' ? Type.Array(emitType(field.type.items, direction, field.keywords.items), field.keywords.value) : emitType(field.type, direction, field.keywords.value);
    return Type.Union([value, Type.Null()], annotations);
  }
  if (field.type.kind === 'array') {
    const items = emitType(field.type.items, direction, field.keywords.items);
    return Type.Array(items, { ...field.keywords.value, ...annotations });
  }
  return emitType(field.type, direction, { ...field.keywords.value, ...annotations });
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

export function emitType(type: TypeModel, direction: SchemaDirection, options: Record<string, unknown> = {}): TSchema {
  if (Object.hasOwn(SCALARS, type.kind)) return SCALARS[type.kind]!(options);
  switch (type.kind) {
    case 'enum': {
      const types = new Set(type.values.map((value) => typeof value));
      const jsonType = types.size === 1 ? (types.has('string') ? 'string' : 'number') : undefined;
      return Type.Unsafe({ ...(jsonType && { type: jsonType }), enum: [...type.values], ...options });
    }
    case 'object':
      return emitClass(type.model, direction, options);
    case 'array':
      return Type.Array(emitType(type.items, direction), options);
    case 'union':
      return Type.Union(
        type.arms.map((arm) => emitType(arm, direction)),
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
