import type { ContractViolation, ViolationSite } from '../errors/contract-violation';
import { ElicitationFormError } from '../errors/elicitation-form.error';
import type { ClassModelBuilder } from '../schema/class-model-builder';
import { emitClass } from '../schema/schema-emitter';
import type { ClassModel, FieldModel, TypeModel } from '../schema/type-model';
import type { ClassType } from '../types/class-type';
import { describeNonClass } from '../helpers/describe-value';
import { compileMaterializer, type Materializer } from './args-materializer';
import { lazyValidator, type SchemaValidator } from './lazy-validator';
import { compileRuleCheck, type RuleCheck } from './rule-check';

/** The keywords a form field of an elicitation may carry (the protocol's restricted schema). */
const FIELD_KEYWORDS = new Set(['type', 'title', 'description', 'default', 'enum', 'format', 'minLength', 'maxLength', 'minimum', 'maximum', 'items', 'minItems', 'maxItems']);

type PropertySchema = Record<string, unknown>;

/** A DTO class as an elicitation form: the schema sent to the client, and how to check and build the answer. */
export interface ElicitationForm {
  model: ClassModel;
  requestedSchema: { type: 'object'; properties: Record<string, PropertySchema>; required?: string[] };
  validator: SchemaValidator;
  materialize: Materializer;
  checkRules?: RuleCheck;
}

const FLAT_KINDS = new Set(['string', 'number', 'integer', 'boolean', 'enum', 'date']);

/**
 * The form for `cls`, compiled once by the startup gate: a flat object of string, number, integer,
 * boolean and enum fields, and arrays of string enum values (multi-selects), as the protocol
 * allows; enum fields with `enumTitles` are sent titled (SEP-1330). What breaks that is reported as
 * violations (through `models`, which reports the class's own), and nothing is returned.
 */
export function compileElicitationForm(cls: ClassType, site: ViolationSite, models: ClassModelBuilder, report: (violation: ContractViolation) => void): ElicitationForm | undefined {
  const model = models.build(cls, { ...site, path: cls.name }, 'args');
  if (!model) return undefined;
  const schema = emitClass(model, 'input') as unknown as { properties: Record<string, PropertySchema>; required?: string[] };
  const emitted = JSON.parse(JSON.stringify(schema.properties)) as Record<string, PropertySchema>;
  const problems: ElicitationFormError[] = [];
  const properties: Record<string, PropertySchema> = {};
  for (const field of model.fields) {
    const property = formProperty(field, emitted[field.name] ?? {}, { ...site, path: `${cls.name}.${field.name}` }, cls.name);
    if (property instanceof ElicitationFormError) problems.push(property);
    else properties[field.name] = property;
  }
  problems.forEach(report);
  if (problems.length > 0) return undefined;
  return {
    model,
    requestedSchema: { type: 'object', properties, ...(schema.required?.length && { required: [...schema.required] }) },
    validator: lazyValidator(emitClass(model, 'input')),
    materialize: compileMaterializer(model),
    checkRules: compileRuleCheck(model),
  };
}

/** One field as the form sends it, or why it cannot be a form field. */
function formProperty(field: FieldModel, emitted: PropertySchema, site: ViolationSite, form: string): PropertySchema | ElicitationFormError {
  const multi = field.type.kind === 'array';
  if (field.nullable || !(FLAT_KINDS.has(field.type.kind) || (field.type.kind === 'array' && isStringEnum(field.type.items, emitted['items'])))) {
    return ElicitationFormError.notFlat(site, form, field.name, describeKind(field));
  }
  const property = keep(emitted);
  if (multi) property['items'] = keep(emitted['items'] as PropertySchema, ['type', 'enum']);
  if (field.enumTitles === undefined) return field.legacyEnumNames ? ElicitationFormError.legacyWithoutTitles(site, form, field.name) : property;
  return titled(field, property, multi, site, form);
}

/** A single- or multi-select with a title per value: `oneOf`/`items.anyOf` of `{ const, title }`, or legacy `enumNames`. */
function titled(field: FieldModel, property: PropertySchema, multi: boolean, site: ViolationSite, form: string): PropertySchema | ElicitationFormError {
  const choices = (multi ? property['items'] : property) as PropertySchema;
  const values = choices['enum'] as unknown[] | undefined;
  if (!values) return ElicitationFormError.titlesWithoutEnum(site, form, field.name);
  const titles = field.enumTitles!;
  const missing = values.map(String).filter((value) => typeof titles[value] !== 'string');
  const extra = Object.keys(titles).filter((key) => !values.map(String).includes(key));
  if (missing.length > 0 || extra.length > 0) return ElicitationFormError.titlesMismatch(site, form, field.name, missing, extra);
  if (field.legacyEnumNames) {
    if (multi) return ElicitationFormError.legacyMultiSelect(site, form, field.name);
    return { ...property, enumNames: values.map((value) => titles[String(value)]) };
  }
  const options = values.map((value) => ({ const: value, title: titles[String(value)] }));
  const { enum: _enum, ...rest } = choices;
  if (multi) return { ...property, items: { anyOf: options } };
  return { ...rest, oneOf: options };
}

function isStringEnum(items: TypeModel, emittedItems: unknown): boolean {
  if (items.kind === 'enum') return items.values.every((value) => typeof value === 'string');
  const enumValues = (emittedItems as PropertySchema | undefined)?.['enum'];
  return items.kind === 'string' && Array.isArray(enumValues);
}

function keep(schema: PropertySchema, allowed: readonly string[] = [...FIELD_KEYWORDS]): PropertySchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => allowed.includes(key)));
}

function describeKind(field: FieldModel): string {
  if (field.nullable) return 'nullable';
  if (field.type.kind === 'array') return 'an array of anything but string enum values';
  return `${/^[aeiou]/.test(field.type.kind) ? 'an' : 'a'} ${field.type.kind}`;
}

/** The forms a member lists in `elicits` (a tool's or a prompt's), compiled; what is not a form is reported. */
export function compileElicitationForms(listed: readonly unknown[] | undefined, site: ViolationSite, models: ClassModelBuilder, report: (violation: ContractViolation) => void): Map<ClassType, ElicitationForm> {
  const forms = new Map<ClassType, ElicitationForm>();
  for (const form of listed ?? []) {
    if (typeof form !== 'function') {
      report(ElicitationFormError.notAClass(site, describeNonClass(form)));
      continue;
    }
    const compiled = compileElicitationForm(form as ClassType, site, models, report);
    if (compiled) forms.set(form as ClassType, compiled);
  }
  return forms;
}
