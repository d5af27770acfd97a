import { validateSync } from 'class-validator';
import type { ClassModel, TypeModel } from '../schema/type-model';

/** One broken rule: where (property path) and class-validator's message. */
export interface RuleProblem {
  path: readonly (string | number)[];
  message: string;
}

/** Lists what a value breaks among the rules a schema cannot express; empty when it breaks none. */
export type RuleCheck = (value: unknown, path?: readonly (string | number)[]) => RuleProblem[];

/**
 * For result classes whose fields carry class-validator rules with no JSON Schema form
 * (`@Contains`, `@IsPhoneNumber`, custom ones), class-validator checks the cleaned result after
 * the schema did, class by class down the model (no `@ValidateNested` needed). Undefined when no
 * class in the tree has such a rule, so those results pay nothing.
 */
export function compileRuleCheck(model: ClassModel, compiling = new Map<ClassModel, { check?: RuleCheck }>()): RuleCheck | undefined {
  // A recursive class met again while compiling: a check that defers to the one being compiled.
  const pending = compiling.get(model);
  if (pending) return (value, path) => pending.check?.(value, path) ?? [];
  const slot: { check?: RuleCheck } = {};
  compiling.set(model, slot);
  slot.check = compileOwnRuleCheck(model, compiling);
  return slot.check;
}

function compileOwnRuleCheck(model: ClassModel, compiling: Map<ClassModel, { check?: RuleCheck }>): RuleCheck | undefined {
  const nested = model.fields
    .map((field) => ({ name: field.name, check: compileTypeCheck(field.type, compiling) }))
    .filter((entry): entry is { name: string; check: RuleCheck } => entry.check !== undefined);
  if (model.extraRules.length === 0 && nested.length === 0) return undefined;
  const prototype = model.cls.prototype as object;
  return (value, path = []) => {
    if (typeof value !== 'object' || value === null) return [];
    const problems: RuleProblem[] = [];
    if (model.extraRules.length > 0) {
      // A shallow instance: nested values stay plain, so only this class's rules apply here.
      const instance = Object.assign(Object.create(prototype) as object, value);
      for (const error of validateSync(instance, { forbidUnknownValues: false })) {
        for (const message of Object.values(error.constraints ?? {})) problems.push({ path: [...path, error.property], message });
      }
    }
    for (const { name, check } of nested) problems.push(...check((value as Record<string, unknown>)[name], [...path, name]));
    return problems;
  };
}

function compileTypeCheck(type: TypeModel, compiling: Map<ClassModel, { check?: RuleCheck }>): RuleCheck | undefined {
  if (type.kind === 'object') return compileRuleCheck(type.model, compiling);
  if (type.kind !== 'array') return undefined;
  const items = compileTypeCheck(type.items, compiling);
  if (!items) return undefined;
  return (value, path = []) => (Array.isArray(value) ? value.flatMap((item, index) => items(item, [...path, index])) : []);
}
