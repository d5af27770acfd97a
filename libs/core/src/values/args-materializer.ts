import type { ClassType } from '../types/class-type';
import { plainToInstance, Type as TransformType } from 'class-transformer';
import type { ClassModel, TypeModel } from '../schema/type-model';

/** Turns validated plain arguments into an instance of the argument DTO class. */
export type Materializer = (args: Record<string, unknown>) => unknown;

/**
 * Arguments reach the tool as an instance of its DTO class, through class-transformer, so property
 * initializers act as defaults and users' own `@Transform`/`@Type` decorators apply. The `@Type`
 * hints for nested DTOs and dates are derived from `@Field` here, once, at startup.
 */
export function compileMaterializer(model: ClassModel): Materializer {
  registerTypeHints(model, new Set());
  const cls = model.cls as new () => unknown;
  return (args) => plainToInstance(cls, args, { exposeDefaultValues: true });
}

function registerTypeHints(model: ClassModel, seen: Set<ClassModel>): void {
  if (seen.has(model)) return;
  seen.add(model);
  for (const field of model.fields) {
    const target = elementClass(field.type);
    if (!target) continue;
    TransformType(() => target.cls)(model.cls.prototype, field.name);
    if (target.model) registerTypeHints(target.model, seen);
  }
}

function elementClass(type: TypeModel): { cls: ClassType; model?: ClassModel } | undefined {
  if (type.kind === 'array') return elementClass(type.items);
  if (type.kind === 'date') return { cls: Date };
  if (type.kind === 'object') return { cls: type.model.cls, model: type.model };
  return undefined;
}
