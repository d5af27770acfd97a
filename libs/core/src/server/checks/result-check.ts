import { compileClassProjector } from '../../compiled/result-projector';
import { lazyValidator } from '../../compiled/lazy-validator';
import { compileRuleCheck } from '../../compiled/rule-check';
import { ContractError } from '../../errors/contract-error';
import { ClassModelBuilder } from '../../schema/class-model-builder';
import { emitClass } from '../../schema/schema-emitter';
import type { ClassType } from '../../types/class-type';
import { describeResultErrors } from './argument-errors';

/** What a value breaks of a result class, one line each (`/data/0/number must be integer`); empty when it fits. */
export type ResultCheck = (value: unknown) => string[];

const checks = new WeakMap<ClassType, ResultCheck>();

/**
 * The check a tool's result gets before it is sent (cleaned to the declared keys, then the schema,
 * then the class-validator rules a schema cannot express), for a tool that wants to know first:
 * a generated tool whose answers are lenient passes an answer that breaks its API's document on as
 * an unchecked value instead of failing. Compiled once per class, on first use.
 */
export function resultCheck(cls: ClassType): ResultCheck {
  const cached = checks.get(cls);
  if (cached) return cached;
  const models = new ClassModelBuilder();
  const model = models.build(cls, { path: cls.name });
  if (!model) throw new ContractError(`resultCheck(${cls.name})`, models.violations);
  const project = compileClassProjector(model);
  const validator = lazyValidator(() => emitClass(model, 'output'));
  const rules = compileRuleCheck(model);
  const check: ResultCheck = (value) => {
    const projected = project(value);
    if (!validator.Check(projected)) return describeResultErrors(validator.Errors(projected));
    return rules ? rules(projected).map((problem) => `/${problem.path.join('/')} ${problem.message}`) : [];
  };
  checks.set(cls, check);
  return check;
}
