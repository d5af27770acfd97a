import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { ElicitationFormError } from '../errors/elicitation-form.error';
import type { ClassModelBuilder } from '../schema/class-model-builder';
import { emitClass } from '../schema/schema-emitter';
import type { ClassModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';
import { compileMaterializer, type Materializer } from './args-materializer';
import { lazyValidator, type SchemaValidator } from './lazy-validator';
import { compileRuleCheck, type RuleCheck } from './rule-check';

/** The keywords a form field of an elicitation may carry (the protocol's restricted schema). */
const FIELD_KEYWORDS = new Set(['type', 'title', 'description', 'default', 'enum', 'format', 'minLength', 'maxLength', 'minimum', 'maximum']);

/** A DTO class as an elicitation form: the schema sent to the client, and how to check and build the answer. */
export interface ElicitationForm {
  model: ClassModel;
  requestedSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
  validator: SchemaValidator;
  materialize: Materializer;
  checkRules?: RuleCheck;
}

const FLAT_KINDS = new Set(['string', 'number', 'integer', 'boolean', 'enum', 'date']);

/**
 * The form for `cls`, compiled once by the startup gate: a flat object of string, number, integer,
 * boolean and enum fields, as the protocol allows. What breaks that is reported as violations
 * (through `models`, which reports the class's own), and nothing is returned.
 */
export function compileElicitationForm(cls: ClassType, site: ViolationSite, models: ClassModelBuilder, report: (violation: ContractViolation) => void): ElicitationForm | undefined {
  const model = models.build(cls, { ...site, path: cls.name }, 'args');
  if (!model) return undefined;
  const notFlat = model.fields.filter((field) => !FLAT_KINDS.has(field.type.kind) || field.nullable);
  for (const field of notFlat) report(ElicitationFormError.notFlat(site, cls.name, field.name, field.nullable ? 'nullable' : `${/^[aeiou]/.test(field.type.kind) ? 'an' : 'a'} ${field.type.kind}`));
  if (notFlat.length > 0) return undefined;
  const schema = emitClass(model, 'input') as unknown as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  const properties = Object.fromEntries(
    Object.entries(JSON.parse(JSON.stringify(schema.properties)) as Record<string, Record<string, unknown>>).map(([name, property]) => [
      name,
      Object.fromEntries(Object.entries(property).filter(([key]) => FIELD_KEYWORDS.has(key))),
    ]),
  );
  return {
    model,
    requestedSchema: { type: 'object', properties, ...(schema.required?.length && { required: [...schema.required] }) },
    validator: lazyValidator(emitClass(model, 'input')),
    materialize: compileMaterializer(model),
    checkRules: compileRuleCheck(model),
  };
}

