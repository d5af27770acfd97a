import { plainToInstance, type ClassTransformOptions, type TargetMap } from 'class-transformer';
import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';

/** Turns validated plain arguments into an instance of the argument DTO class. */
export type Materializer = (args: Record<string, unknown>) => unknown;

/**
 * Arguments reach the tool as an instance of its DTO class, through class-transformer's public
 * `plainToInstance`, so the user's own `@Transform`/`@Expose`/`@Exclude` apply. The types of nested
 * DTOs and dates come from the compiled model as `targetMaps`, computed once here: no `@Type` is
 * added to the user's classes and nothing of class-transformer's internals is read.
 */
export function compileMaterializer(model: ClassModel): Materializer {
  const cls = model.cls as new () => object;
  const options: ClassTransformOptions = { exposeDefaultValues: true, targetMaps: targetMapsOf(model) };
  return (args) => plainToInstance(cls, args, options);
}

/** One target map per DTO class reachable from `model`, naming the class of each nested or date field. */
function targetMapsOf(model: ClassModel, maps = new Map<ClassType, TargetMap>()): TargetMap[] {
  if (maps.has(model.cls)) return [...maps.values()];
  const properties: Record<string, ClassType> = {};
  maps.set(model.cls, { target: model.cls, properties });
  for (const field of model.fields) {
    const element = elementClass(field.type);
    if (!element) continue;
    properties[field.name] = element.cls;
    if (element.model) targetMapsOf(element.model, maps);
  }
  return [...maps.values()];
}

function elementClass(type: TypeModel): { cls: ClassType; model?: ClassModel } | undefined {
  if (type.kind === 'array') return elementClass(type.items);
  if (type.kind === 'date') return { cls: Date };
  if (type.kind === 'object') return { cls: type.model.cls, model: type.model };
  return undefined;
}
