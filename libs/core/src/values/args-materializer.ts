import { plainToInstance, TransformationType, Type as TransformType } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';

// class-transformer keeps its metadata storage off its public entry; this is the module it uses.
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** Turns validated plain arguments into an instance of the argument DTO class. */
export type Materializer = (args: Record<string, unknown>) => unknown;

/**
 * Arguments reach the tool as an instance of its DTO class. Where there is something to convert
 * (nested DTOs, dates, the user's own `@Transform`/`@Type`/`@Expose`/`@Exclude`), class-transformer
 * does it, with `@Type` hints derived from `@Field` once, here. A flat class with none of that gets
 * `Object.assign(new Class(), args)`: the same result without class-transformer's per-call walk.
 */
export function compileMaterializer(model: ClassModel): Materializer {
  const cls = model.cls as new () => object;
  if (isFlat(model)) return (args) => Object.assign(new cls(), args);
  registerTypeHints(model);
  return (args) => plainToInstance(cls, args, { exposeDefaultValues: true });
}

function isFlat(model: ClassModel): boolean {
  const { cls } = model;
  if (defaultMetadataStorage.getStrategy(cls) !== 'none') return false;
  if (defaultMetadataStorage.getExposedMetadatas(cls).length > 0 || defaultMetadataStorage.getExcludedMetadatas(cls).length > 0) return false;
  return model.fields.every(
    (field) =>
      elementClass(field.type) === undefined &&
      field.type.kind !== 'union' &&
      field.type.kind !== 'schema' &&
      !defaultMetadataStorage.findTypeMetadata(cls, field.name) &&
      defaultMetadataStorage.findTransformMetadatas(cls, field.name, TransformationType.PLAIN_TO_CLASS).length === 0,
  );
}

function registerTypeHints(model: ClassModel, seen = new Set<ClassModel>()): void {
  if (seen.has(model)) return;
  seen.add(model);
  for (const field of model.fields) {
    const target = elementClass(field.type);
    if (!target) continue;
    if (!defaultMetadataStorage.findTypeMetadata(model.cls, field.name)) TransformType(() => target.cls)(model.cls.prototype, field.name);
    if (target.model) registerTypeHints(target.model, seen);
  }
}

function elementClass(type: TypeModel): { cls: ClassType; model?: ClassModel } | undefined {
  if (type.kind === 'array') return elementClass(type.items);
  if (type.kind === 'date') return { cls: Date };
  if (type.kind === 'object') return { cls: type.model.cls, model: type.model };
  return undefined;
}
