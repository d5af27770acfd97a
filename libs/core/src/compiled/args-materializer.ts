import { plainToInstance, type ClassTransformOptions, type TargetMap } from 'class-transformer';
import type { ClassModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';
import { compileInstanceBuilder, NOT_COMPILED } from './instance-builder';
import { needsClassTransformer } from './transformer-metadata';

/** Which way arguments become a DTO instance: the compiled builder, or class-transformer (and why). */
export type MaterializePath = { kind: 'compiled' } | { kind: 'class-transformer'; reason: string } | { kind: 'raw' };

/** Turns validated plain arguments into an instance of the argument DTO class. */
export interface Materializer {
  (args: Record<string, unknown>): unknown;
  readonly path: MaterializePath;
}

/**
 * Arguments reach the tool as an instance of its DTO class, exactly as class-transformer's public
 * `plainToInstance` would build it. A DTO with none of class-transformer's own decorators (nor a
 * nested DTO with one) gets a builder compiled once from the model, about ten times faster; any
 * other (`@Transform`, `@Type` discriminators, `@Expose`/`@Exclude`) goes through
 * `plainToInstance` itself, so its semantics hold. The types of nested DTOs and dates come from
 * the model as `targetMaps` either way: no `@Type` is added to the user's classes.
 */
export function compileMaterializer(model: ClassModel): Materializer {
  // Decided and compiled on the first call (or the first look at `path`): a 1,000-tool catalog
  // starts without compiling builders most of its tools may never need.
  let chosen: { path: MaterializePath; build: (args: Record<string, unknown>) => unknown } | undefined;
  const choose = () => (chosen ??= choosePath(model));
  const materialize = (args: Record<string, unknown>): unknown => (chosen ?? choose()).build(args);
  return Object.defineProperty(materialize, 'path', { get: () => choose().path, enumerable: true }) as Materializer;
}

function choosePath(model: ClassModel): { path: MaterializePath; build: (args: Record<string, unknown>) => unknown } {
  const cls = model.cls as new () => object;
  const options: ClassTransformOptions = { exposeDefaultValues: true, targetMaps: targetMapsOf(model) };
  const viaClassTransformer = (args: Record<string, unknown>) => plainToInstance(cls, args, options);
  const reason = needsClassTransformer(model);
  if (reason !== undefined) return { path: { kind: 'class-transformer', reason }, build: viaClassTransformer };
  const build = compileInstanceBuilder(model);
  const compiled = (args: Record<string, unknown>): unknown => {
    try {
      return build(args);
    } catch (error) {
      // A value only class-transformer knows how to treat (never one that passed the closed input schema).
      if (error === NOT_COMPILED) return viaClassTransformer(args);
      throw error;
    }
  };
  return { path: { kind: 'compiled' }, build: compiled };
}

/** Arguments handed over as they came (a tool declared with a raw JSON Schema). */
export const passThrough: Materializer = Object.assign((args: Record<string, unknown>) => args, { path: { kind: 'raw' } as const });

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
