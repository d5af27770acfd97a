import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';

/** Turns a value into what the DTO holds. */
type Convert = (value: unknown) => unknown;

/**
 * Thrown by a built instance when the value holds something only class-transformer itself knows
 * how to treat (an undeclared key, a class instance, a thenable): the caller then uses it.
 */
export const NOT_COMPILED: unique symbol = Symbol('toolsets.not-compiled');

interface FieldPlan {
  convert: Convert;
  /** A getter without a setter (or a method) on the class's prototype: class-transformer skips the key. */
  skip: boolean;
}

/**
 * The instance `plainToInstance(cls, value, { exposeDefaultValues: true, targetMaps })` builds for
 * a DTO without class-transformer decorators, built by closures compiled once from the model:
 * `new cls()` (so initialisers give defaults), then each key the value has, in its order, nested
 * DTOs and dates converted as the target maps name them, anything else copied as
 * class-transformer copies it. Same keys, same order, same classes, same skipped members.
 */
export function compileInstanceBuilder(model: ClassModel): (value: Record<string, unknown>) => object {
  return classBuilder(model, new Map());
}

function classBuilder(model: ClassModel, built: Map<ClassType, (value: Record<string, unknown>) => object>): (value: Record<string, unknown>) => object {
  const existing = built.get(model.cls);
  if (existing) return existing;
  const cls = model.cls as new () => Record<string, unknown>;
  const fields: Record<string, FieldPlan> = Object.create(null);
  const build = (value: Record<string, unknown>): object => {
    const instance = new cls();
    for (const key of Object.keys(value)) {
      if (key === '__proto__' || key === 'constructor') continue;
      const field = fields[key];
      if (field === undefined) throw NOT_COMPILED;
      if (field.skip || instance[key] instanceof Function) continue;
      const sub = value[key];
      instance[key] = sub === undefined ? instance[key] : field.convert(sub);
    }
    return instance;
  };
  built.set(model.cls, build);
  for (const field of model.fields) {
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, field.name);
    fields[field.name] = { convert: converter(field.type, built), skip: descriptor !== undefined && descriptor.set === undefined };
  }
  return build;
}

/** The conversion class-transformer applies for a field of this type: by element class through arrays. */
function converter(type: TypeModel, built: Map<ClassType, (value: Record<string, unknown>) => object>): Convert {
  if (type.kind === 'array') return converter(type.items, built);
  if (type.kind === 'date') return throughArrays(toDate);
  if (type.kind === 'object') {
    const build = classBuilder(type.model, built);
    return throughArrays((value) => (typeof value === 'object' && value !== null ? (special(value) ?? build(value as Record<string, unknown>)) : value));
  }
  return copyPlain;
}

function throughArrays(convert: Convert): Convert {
  const each = (value: unknown): unknown => {
    if (!Array.isArray(value)) return value instanceof Set || value instanceof Map ? notCompiled() : convert(value);
    const out: unknown[] = [];
    for (const item of value) out.push(each(item));
    return out;
  };
  return each;
}

function toDate(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.valueOf());
  if (value === null || value === undefined) return value;
  return new Date(value as string);
}

/** Values class-transformer treats by their own class whatever the target: dates, buffers, sets, maps, thenables. */
function special(value: object): unknown {
  if (value instanceof Date) return new Date(value.valueOf());
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (value instanceof Set || value instanceof Map || typeof (value as { then?: unknown }).then === 'function') return notCompiled();
  return undefined;
}

function notCompiled(): never {
  throw NOT_COMPILED;
}

/** A value with no target class: arrays and plain objects copied deep, skipping what a plain object already has. */
function copyPlain(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) out.push(copyPlain(item));
    return out;
  }
  const known = special(value);
  if (known !== undefined) return known;
  // class-transformer would build `value.constructor`: a class instance, or a key named `constructor`.
  if ((value as { constructor?: unknown }).constructor !== Object) throw NOT_COMPILED;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || key === 'constructor') continue;
    if (key in out && inheritedMember(out, key)) continue;
    const sub = (value as Record<string, unknown>)[key];
    out[key] = sub === undefined ? out[key] : copyPlain(sub);
  }
  return out;
}

function inheritedMember(out: Record<string, unknown>, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, key);
  return (descriptor !== undefined && descriptor.set === undefined) || out[key] instanceof Function;
}
