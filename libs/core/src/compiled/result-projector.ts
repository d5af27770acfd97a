import { lazyValidator } from './lazy-validator';
import { Value } from 'typebox/value';
import type { SchemaNode } from '../types/schema-node';
import { emitType } from '../schema/schema-emitter';
import type { ClassModel, TypeModel } from '../schema/type-model';

/** Copies a returned value down to its declared keys; never mutates the input. */
export type Projector = (value: unknown) => unknown;

const identity: Projector = (value) => value;
const classProjectors = new WeakMap<ClassModel, Projector>();

/**
 * Compiles, once per DTO class, a function that keeps declared keys only, omits absent ones (no null
 * padding) and turns `Date`s into ISO strings. It does not validate: the compiled schema checks after.
 */
export function compileProjector(type: TypeModel): Projector {
  switch (type.kind) {
    case 'object':
      return compileClassProjector(type.model);
    case 'array': {
      const items = compileProjector(type.items);
      if (items === identity) return identity;
      return (value) => (Array.isArray(value) ? value.map(items) : value);
    }
    case 'date':
      return (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value);
    case 'union':
      return compileUnionProjector(type.arms);
    case 'schema':
      return compileSchemaProjector(type.schema);
    default:
      return identity;
  }
}

export function compileClassProjector(model: ClassModel): Projector {
  const cached = classProjectors.get(model);
  if (cached) return cached;
  // Cached before its fields are compiled: a recursive class's fields find this projector.
  const fields: { name: string; project: Projector }[] = [];
  const projector: Projector = (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of fields) {
      const fieldValue = source[field.name];
      if (fieldValue !== undefined) out[field.name] = field.project(fieldValue);
    }
    return out;
  };
  classProjectors.set(model, projector);
  for (const field of model.fields) fields.push({ name: field.name, project: compileProjector(field.type) });
  return projector;
}

/** Projects through the first arm whose schema the projected value satisfies. */
function compileUnionProjector(arms: readonly TypeModel[]): Projector {
  // Each arm's schema is emitted on the first value that needs it, as validators are compiled:
  // a large API's answers are full of unions (Stripe's id-or-object fields) most calls never reach.
  const compiled = arms.map((arm) => ({ project: compileProjector(arm), check: lazyValidator(() => emitType(arm, 'output')) }));
  return (value) => {
    for (const arm of compiled) {
      const projected = arm.project(value);
      if (arm.check.Check(projected)) return projected;
    }
    return value;
  };
}

/** A raw TypeBox field: TypeBox's own Clean, on a clone because Clean mutates. */
function compileSchemaProjector(schema: SchemaNode): Projector {
  return (value) => Value.Clean(schema, Value.Clone(value));
}
