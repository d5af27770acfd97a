import { ClassModelBuilder } from '../schema/class-model-builder';
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

const forms = new WeakMap<ClassType, ElicitationForm>();

/**
 * The form for `cls`, built on first use and kept: a flat object of string, number, integer,
 * boolean and enum fields, as the protocol allows. A class that breaks the contract, or has a
 * nested or array field, throws a `ContractError` naming the property and the fix.
 */
export function elicitationForm(cls: ClassType): ElicitationForm {
  let form = forms.get(cls);
  if (form) return form;
  const builder = new ClassModelBuilder();
  const model = builder.build(cls, { path: cls.name }, 'args');
  const notFlat = model?.fields.filter((field) => !['string', 'number', 'integer', 'boolean', 'enum', 'date'].includes(field.type.kind) || field.nullable) ?? [];
  if (!model || notFlat.length > 0) {
    const problems = builder.violations.map((violation) => violation.message);
    for (const field of notFlat) problems.push(`'${field.name}' of '${cls.name}' is ${field.nullable ? 'nullable' : `a ${field.type.kind}`}; an elicitation form has only string, number, integer, boolean and enum fields. Fix: flatten it into such fields.`);
    throw new Error(`The elicitation form '${cls.name}' cannot be sent:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  const schema = emitClass(model, 'input') as unknown as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  const properties = Object.fromEntries(
    Object.entries(JSON.parse(JSON.stringify(schema.properties)) as Record<string, Record<string, unknown>>).map(([name, property]) => [
      name,
      Object.fromEntries(Object.entries(property).filter(([key]) => FIELD_KEYWORDS.has(key))),
    ]),
  );
  form = {
    model,
    requestedSchema: { type: 'object', properties, ...(schema.required?.length && { required: [...schema.required] }) },
    validator: lazyValidator(emitClass(model, 'input')),
    materialize: compileMaterializer(model),
    checkRules: compileRuleCheck(model),
  };
  forms.set(cls, form);
  return form;
}

