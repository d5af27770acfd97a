import type { OperationModel } from './operation-model';
import type { PropertyModel, SchemaModel } from './schema-model';

/**
 * One argument's curation in `openapi.config.json` (`tools.<operation>.arguments.<name>`), for a
 * path, query or header parameter or a top-level field of a JSON body: `value` hides it and always
 * sends that value; `default` is sent when the caller leaves it out (and makes it optional); `name`
 * renames it for the model; `description` says it anew; `enum`, `pattern` and the bounds narrow
 * what the document allows; `examples` are advertised.
 */
export interface ArgumentCuration {
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
export type CuratedArgument = { constant: string | number | boolean } | { property: PropertyModel; fallback?: string | number | boolean };

/** Where an entry sits in the config, for messages. */
const entryOf = (op: OperationModel, key: string) => `openapi.config.json "tools"."${op.operationId ?? op.toolName}"."arguments"."${key}"`;

/** Applies `curated` (if any) to the argument `property` the document gives under `key`; stops at an entry the schema refuses. */
export function curateArgument(op: OperationModel, key: string, property: PropertyModel, curated: ArgumentCuration | undefined): CuratedArgument {
  if (!curated) return { property };
  const where = entryOf(op, key);
  if (curated.value !== undefined) {
    // Hidden: never an argument, always this value.
    checkValue(where, 'value', curated.value, property.schema);
    return { constant: curated.value };
  }
  const schema = narrowed(where, property.schema, curated);
  if (curated.default !== undefined) checkValue(where, 'default', curated.default, schema);
  if (curated.examples !== undefined) {
    if (!Array.isArray(curated.examples) || curated.examples.length === 0) throw new Error(`${where}."examples": must be a list of one or more values.`);
    curated.examples.forEach((example, index) => checkValue(where, `examples[${index}]`, example, schema));
  }
  if (curated.description !== undefined && (typeof curated.description !== 'string' || curated.description.trim() === '')) throw new Error(`${where}."description": must be text a model can read.`);
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
 * or renames one onto another.
 */
export function checkArgumentEntries(op: OperationModel, argumentNames: readonly string[], curation: Record<string, ArgumentCuration>): void {
  for (const [key, entry] of Object.entries(curation)) {
    const where = entryOf(op, key);
    if (!argumentNames.includes(key)) {
      throw new Error(`${where}: the operation has no such argument (renamed or removed upstream?). Its arguments: ${argumentNames.join(', ') || 'none'}. Rename the entry, or remove it.`);
    }
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where}: must be an object ({ "value": …, "default": …, "name": …, "description": …, "enum": […], … }).`);
    if (entry.name !== undefined && (typeof entry.name !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(entry.name) || argumentNames.some((name) => name === entry.name && name !== key))) {
      throw new Error(`${where}."name": ${JSON.stringify(entry.name)} must be an identifier that no other argument of the operation uses.`);
    }
  }
  const renamed = Object.entries(curation).filter(([, entry]) => entry.name !== undefined && entry.value === undefined);
  for (const [key, entry] of renamed) {
    const twin = renamed.find(([other, next]) => other !== key && next.name === entry.name);
    if (twin) throw new Error(`${entryOf(op, key)}."name": ${JSON.stringify(entry.name)} is also the new name of "${twin[0]}". Give each argument its own name.`);
  }
}

/** The schema narrowed by the entry's enum, pattern and bounds, each checked to narrow and not widen. */
function narrowed(where: string, schema: SchemaModel, curated: ArgumentCuration): SchemaModel {
  let result = schema;
  if (curated.enum !== undefined) {
    if (!Array.isArray(curated.enum) || curated.enum.length === 0) throw new Error(`${where}."enum": must be a list of one or more values.`);
    curated.enum.forEach((value, index) => checkValue(where, `enum[${index}]`, value, schema, 'An enum can only narrow what the document allows.'));
    result = { kind: 'enum', values: [...curated.enum], ...(schema.description && { description: schema.description }), ...(schema.nullable && { nullable: true }) };
  }
  const lengths = (['minLength', 'maxLength'] as const).filter((key) => curated[key] !== undefined);
  const bounds = (['minimum', 'maximum'] as const).filter((key) => curated[key] !== undefined);
  if (curated.pattern !== undefined || lengths.length > 0) {
    const keyword = curated.pattern !== undefined ? 'pattern' : lengths[0]!;
    if (result.kind !== 'string') throw new Error(`${where}."${keyword}": applies to a string argument, and this one is ${describeKind(result)}.`);
    result = narrowString(where, result, curated);
  }
  if (bounds.length > 0) {
    if (result.kind !== 'integer' && result.kind !== 'number') throw new Error(`${where}."${bounds[0]}": applies to a number argument, and this one is ${describeKind(result)}.`);
    result = { ...result, ...within(where, result, curated.minimum, curated.maximum, 'minimum', 'maximum') };
  }
  return result;
}

function narrowString(where: string, schema: SchemaModel & { kind: 'string' }, curated: ArgumentCuration): SchemaModel {
  let pattern = schema.pattern;
  if (curated.pattern !== undefined) {
    if (schema.pattern !== undefined) throw new Error(`${where}."pattern": the document already requires the pattern ${schema.pattern}, which a curated one would replace. Remove the entry, or narrow it with "enum" or "maxLength".`);
    try {
      new RegExp(curated.pattern, 'u');
    } catch (error) {
      throw new Error(`${where}."pattern": ${JSON.stringify(curated.pattern)} is not a regular expression (${(error as Error).message}).`);
    }
    pattern = curated.pattern;
  }
  return { ...schema, ...(pattern !== undefined && { pattern }), ...within(where, schema, curated.minLength, curated.maxLength, 'minLength', 'maxLength') };
}

/** Lower and upper bounds that stay inside the schema's own, low not above high. */
function within<L extends 'minimum' | 'minLength', H extends 'maximum' | 'maxLength'>(where: string, schema: Partial<Record<L | H, number>>, low: number | undefined, high: number | undefined, lowKey: L, highKey: H): Partial<Record<L | H, number>> {
  const out: Partial<Record<L | H, number>> = {};
  for (const [key, value] of [
    [lowKey, low],
    [highKey, high],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || (key.endsWith('Length') && (!Number.isInteger(value) || value < 0))) throw new Error(`${where}."${key}": ${JSON.stringify(value)} is not ${key.endsWith('Length') ? 'a whole number of characters' : 'a number'}.`);
    const own = schema[key];
    const widens = own !== undefined && (key === lowKey ? value < own : value > own);
    if (widens) throw new Error(`${where}."${key}": ${value} widens the document's ${key} ${own}. A curation can only narrow an argument.`);
    out[key] = value;
  }
  const [lowValue, highValue] = [out[lowKey] ?? schema[lowKey], out[highKey] ?? schema[highKey]];
  if (lowValue !== undefined && highValue !== undefined && lowValue > highValue) throw new Error(`${where}: ${lowKey} ${lowValue} is above ${highKey} ${highValue}, so no value would be allowed.`);
  return out;
}

function checkValue(where: string, field: string, value: unknown, schema: SchemaModel, fix = "Give a value the parameter's schema allows."): void {
  const problem = valueProblem(value, schema);
  if (problem) throw new Error(`${where}."${field}": ${JSON.stringify(value)} ${problem}. ${fix}`);
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

function describeKind(schema: SchemaModel): string {
  return schema.kind === 'enum' ? 'a list of values' : schema.kind === 'open' ? 'an open value' : `${/^[aeiou]/.test(schema.kind) ? 'an' : 'a'} ${schema.kind}`;
}
