import { argumentEntryProblems, omitsRequired, renameProblems, type CuratedArgumentFacts } from '@toolsets/core/curation-rules';
import { closest } from './closest-name';
import type { OperationModel } from './operation-model';
import type { PropertyModel, SchemaModel } from './schema-model';

/**
 * One argument's curation in `openapi.config.json` (`tools.<operation>.arguments.<name>`), for a
 * path, query or header parameter or a top-level field of a JSON body: `value` hides it and always
 * sends that value; `omit: true` hides an optional one and sends nothing for it; `default` is sent when the caller leaves it out (and makes it optional); `name`
 * renames it for the model; `description` says it anew; `enum`, `pattern` and the bounds narrow
 * what the document allows; `examples` are advertised.
 */
export interface ArgumentCuration {
  /** Hide an optional argument and send nothing for it (the API's own default applies). Stands alone. */
  omit?: true;
  value?: string | number | boolean;
  default?: string | number | boolean;
  name?: string;
  description?: string;
  /** Only these values, each one the document allows. */
  enum?: readonly (string | number)[];
  /** A regular expression the value must match, for a string the document gives no pattern. */
  pattern?: string;
  /** Bounds within the document's own, for a number. */
  minimum?: number;
  maximum?: number;
  /** Bounds within the document's own, for a string's length. */
  minLength?: number;
  maxLength?: number;
  /** Example values (each one the narrowed schema allows), advertised as `examples`. */
  examples?: readonly unknown[];
}

/** What an argument becomes: hidden behind a constant, or the property a model sees (and the value its silence sends). */
export type CuratedArgument = { constant: string | number | boolean } | { omitted: true } | { property: PropertyModel; fallback?: string | number | boolean };

/** Where an entry sits in the config, for messages. */
const entryOf = (op: OperationModel, key: string) => `openapi.config.json "tools"."${op.operationId ?? op.toolName}"."arguments"."${key}"`;

/**
 * Applies `curated` (if any) to the argument `property` the document gives under `key`; stops at an
 * entry the schema refuses. `where`: the entry's place in the config, when it is not the tool's own
 * (a library's or a tag's entry, applied to this operation: the message names the operation too).
 */
export function curateArgument(op: OperationModel, key: string, property: PropertyModel, curated: ArgumentCuration | undefined, shared?: string): CuratedArgument {
  if (!curated) return { property };
  const where = shared ?? entryOf(op, key);
  // A library's or tag's entry: the message names the operation it was applied to.
  const note = shared === undefined ? '' : ` (applied to "${op.operationId ?? op.toolName}")`;
  const problem = argumentEntryProblems(curated, factsOf(property.schema))[0] ?? omitsRequired(curated, property.required);
  if (problem) throw new Error(`${where}${problem.setting ? `."${problem.setting}"` : ''}${note}: ${problem.problem}. ${capitalized(problem.fix)}`);
  if (curated.omit === true) return { omitted: true };
  if (curated.value !== undefined) {
    // Hidden: never an argument, always this value.
    checkValue(where, 'value', curated.value, property.schema, undefined, note);
    return { constant: curated.value };
  }
  const schema = narrowed(where, property.schema, curated, note);
  if (curated.default !== undefined) checkValue(where, 'default', curated.default, schema, undefined, note);
  curated.examples?.forEach((example, index) => checkValue(where, `examples[${index}]`, example, schema, undefined, note));
  return {
    property: {
      ...property,
      name: curated.name ?? property.name,
      required: property.required && curated.default === undefined,
      schema: {
        ...schema,
        ...(curated.description !== undefined && { description: curated.description }),
        ...(curated.default !== undefined && { default: curated.default }),
        ...(curated.examples !== undefined && { examples: [...curated.examples] }),
      },
    },
    ...(curated.default !== undefined && { fallback: curated.default }),
  };
}

/**
 * Stops at an argument entry that names no argument the tool takes (renamed or removed upstream),
 * or renames one onto another (`effective`: the tool's entries with the library's and tags' it takes).
 */
export function checkArgumentEntries(op: OperationModel, argumentNames: readonly string[], curation: Record<string, ArgumentCuration>, effective = curation): void {
  for (const key of Object.keys(curation)) {
    if (!argumentNames.includes(key)) {
      const near = closest(key, argumentNames);
      throw new Error(`${entryOf(op, key)}: the operation has no such argument (renamed or removed upstream?).${near ? ` The closest is "${near}".` : ''} Its arguments: ${argumentNames.join(', ') || 'none'}. Rename the entry, or remove it.`);
    }
  }
  const clash = renameProblems(effective, argumentNames)[0];
  if (clash) throw new Error(`${entryOf(op, clash.argument)}."name": ${clash.problem.problem}. ${capitalized(clash.problem.fix)}`);
}

/** The schema narrowed by the entry's enum, pattern and bounds (the shared rules checked them; the enum's values are checked here). */
function narrowed(where: string, schema: SchemaModel, curated: ArgumentCuration, note: string): SchemaModel {
  let result = schema;
  if (curated.enum !== undefined) {
    curated.enum.forEach((value, index) => checkValue(where, `enum[${index}]`, value, schema, 'An enum can only narrow what the document allows.', note));
    result = { kind: 'enum', values: [...curated.enum], ...(schema.description && { description: schema.description }), ...(schema.nullable && { nullable: true }) };
  }
  const settings = Object.fromEntries((['pattern', 'minimum', 'maximum', 'minLength', 'maxLength'] as const).filter((key) => curated[key] !== undefined).map((key) => [key, curated[key]]));
  return Object.keys(settings).length > 0 ? ({ ...result, ...settings } as SchemaModel) : result;
}

/** What the shared curation rules read of an argument's schema model. */
function factsOf(schema: SchemaModel): CuratedArgumentFacts {
  const types = schema.kind === 'enum' ? [...new Set(schema.values.map((value) => (typeof value === 'number' ? 'number' : 'string')))] : schema.kind === 'open' ? [] : [schema.kind];
  const own = schema as Partial<Record<'pattern', string> & Record<'minimum' | 'maximum' | 'minLength' | 'maxLength', number>>;
  return {
    types,
    enumerated: schema.kind === 'enum',
    ...(own.pattern !== undefined && { pattern: own.pattern }),
    ...(own.minimum !== undefined && { minimum: own.minimum }),
    ...(own.maximum !== undefined && { maximum: own.maximum }),
    ...(own.minLength !== undefined && { minLength: own.minLength }),
    ...(own.maxLength !== undefined && { maxLength: own.maxLength }),
    owner: "the document's",
  };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function checkValue(where: string, field: string, value: unknown, schema: SchemaModel, fix = "Give a value the parameter's schema allows.", note = ''): void {
  const problem = valueProblem(value, schema);
  if (problem) throw new Error(`${where}."${field}"${note}: ${JSON.stringify(value)} ${problem}. ${fix}`);
}

/** Why `value` does not fit `schema`, for the kinds a curated value can have; undefined when it fits. */
export function valueProblem(value: unknown, schema: SchemaModel): string | undefined {
  switch (schema.kind) {
    case 'enum':
      return schema.values.includes(value as string | number) ? undefined : `is not one of ${schema.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'string':
      return stringProblem(value, schema);
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || (schema.kind === 'integer' && !Number.isInteger(value))) return `is not ${schema.kind === 'integer' ? 'a whole number' : 'a number'}`;
      if (schema.minimum !== undefined && value < schema.minimum) return `is below the minimum ${schema.minimum}`;
      return schema.maximum !== undefined && value > schema.maximum ? `is above the maximum ${schema.maximum}` : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not true or false';
    default:
      return undefined;
  }
}

function stringProblem(value: unknown, schema: SchemaModel & { kind: 'string' }): string | undefined {
  if (typeof value !== 'string') return 'is not a string';
  if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return `does not match the pattern ${schema.pattern}`;
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return `is shorter than ${schema.minLength} characters`;
  return schema.maxLength !== undefined && length > schema.maxLength ? `is longer than ${schema.maxLength} characters` : undefined;
}
