import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';

/** The part of class-transformer's metadata storage read here (class-transformer 0.5). */
interface TransformerStorage {
  findTypeMetadata(target: ClassType, property: string): unknown;
  findTransformMetadatas(target: ClassType, property: string, transformationType: number): unknown[];
  getExposedMetadatas(target: ClassType): unknown[];
  getExcludedMetadatas(target: ClassType): unknown[];
  getStrategy(target: ClassType): string;
}

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/**
 * class-transformer's own storage, from the same package instance as the `plainToInstance` the
 * fallback calls (so both see the same decorators). It is exported by path only; when it cannot
 * be read, no longer looks like this, or does not see what the public decorators record (a bundler
 * that took class-transformer's ES module build has a storage of its own there), every DTO takes
 * the class-transformer path.
 */
export function readableTransformerStorage(load: () => unknown = () => require('class-transformer/cjs/storage')): TransformerStorage | undefined {
  try {
    const storage = (load() as { defaultMetadataStorage?: TransformerStorage }).defaultMetadataStorage;
    const methods = ['findTypeMetadata', 'findTransformMetadatas', 'getExposedMetadatas', 'getExcludedMetadatas', 'getStrategy'] as const;
    if (!storage || !methods.every((method) => typeof storage[method] === 'function')) return undefined;
    return seesPublicDecorators(storage) ? storage : undefined;
  } catch {
    return undefined;
  }
}

/** The probe: a class decorated with the public `@Type`, which this storage must then hold. */
function seesPublicDecorators(storage: TransformerStorage): boolean {
  const { Type } = require('class-transformer') as typeof import('class-transformer');
  class TransformerStorageProbe {
    probe?: string;
  }
  Type(() => String)(TransformerStorageProbe.prototype, 'probe');
  return storage.findTypeMetadata(TransformerStorageProbe, 'probe') !== undefined;
}

let storage: TransformerStorage | undefined | null = null;

/**
 * Why `model` (or a DTO it nests) needs class-transformer itself: the first decorator of its found
 * (`@Transform`, `@Type`, `@Expose`, `@Exclude`), or a field name a plain object already has.
 * `undefined` when the compiled builder gives the same instance `plainToInstance` would.
 */
export function needsClassTransformer(model: ClassModel, seen = new Set<ClassType>()): string | undefined {
  if (storage === null) storage = readableTransformerStorage();
  if (!storage) return "class-transformer's metadata storage could not be read";
  if (seen.has(model.cls)) return undefined;
  seen.add(model.cls);
  const where = `'${model.name}'`;
  if (storage.getStrategy(model.cls) !== 'none') return `${where} has a class-level @Expose or @Exclude`;
  if (storage.getExposedMetadatas(model.cls).length > 0) return `${where} has @Expose`;
  if (storage.getExcludedMetadatas(model.cls).length > 0) return `${where} has @Exclude`;
  for (const field of model.fields) {
    const site = `'${field.name}' of ${where}`;
    // A plain object's own members: class-transformer's target maps read them as types.
    if (field.name in Object.prototype) return `${site} is named like a member of every object`;
    if (storage.findTypeMetadata(model.cls, field.name)) return `${site} has @Type`;
    if (storage.findTransformMetadatas(model.cls, field.name, PLAIN_TO_CLASS).length > 0) return `${site} has @Transform`;
    const nested = nestedModel(field.type);
    const reason = nested && needsClassTransformer(nested, seen);
    if (reason) return reason;
  }
  return undefined;
}

function nestedModel(type: TypeModel): ClassModel | undefined {
  if (type.kind === 'array') return nestedModel(type.items);
  return type.kind === 'object' ? type.model : undefined;
}
