import type { SchemaModel } from './schema-model';

/** An OpenAPI schema object, as the converter reads it. */
export type Json = Record<string, unknown>;

// What the schema converter (convert-schema.ts) reads of a schema's keywords: its types, bounds,
// examples, formats and names, each on its own, without the converter's state.

/** Whether a document's default is a value of the type it defaults (OpenAI's integer `max_tokens` defaults to `"inf"`). */
export function defaultFits(model: SchemaModel, value: unknown): boolean {
  switch (model.kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'enum':
      return model.values.includes(value as string | number);
    case 'array':
      return Array.isArray(value);
    case 'object':
    case 'record':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/** The JSON types a schema allows, and whether null is one (3.0 `nullable`, 3.1 type arrays). */
export function typesOf(schema: Json): { types: string[]; nullable: boolean } {
  const declared = schema['type'];
  const list = Array.isArray(declared) ? (declared as string[]) : typeof declared === 'string' ? [declared] : [];
  const nonNull = list.filter((type) => type !== 'null');
  return { types: nonNull.length > 0 ? nonNull : list, nullable: schema['nullable'] === true || (list.includes('null') && nonNull.length > 0) };
}

/** A schema that only annotates (a description, nullable, a title, read-only...): no type, no structure. */
export function isAnnotationOnly(schema: Json): boolean {
  const structural = ['type', 'properties', 'items', 'allOf', 'anyOf', 'oneOf', 'enum', 'const', 'additionalProperties', '$ref'];
  const nullOnly = Array.isArray(schema['type']) && schema['type'].length === 1 && schema['type'][0] === 'null';
  return nullOnly || !structural.some((key) => schema[key] !== undefined);
}

export function flattenAllOf(arms: readonly Json[]): Json[] {
  return arms.flatMap((arm) => (Array.isArray(arm['allOf']) ? flattenAllOf(arm['allOf'] as Json[]) : [arm]));
}

export function numericBounds(schema: Json): Record<string, number> {
  const bounds = pick(schema, ['minimum', 'maximum']) as Record<string, number>;
  // 3.0 writes exclusive bounds as booleans beside minimum/maximum; 3.1 as numbers.
  if (schema['exclusiveMinimum'] === true && typeof schema['minimum'] === 'number') return { ...withoutKey(bounds, 'minimum'), exclusiveMinimum: schema['minimum'] };
  if (typeof schema['exclusiveMinimum'] === 'number') bounds['exclusiveMinimum'] = schema['exclusiveMinimum'];
  if (schema['exclusiveMaximum'] === true && typeof schema['maximum'] === 'number') return { ...withoutKey(bounds, 'maximum'), exclusiveMaximum: schema['maximum'] };
  if (typeof schema['exclusiveMaximum'] === 'number') bounds['exclusiveMaximum'] = schema['exclusiveMaximum'];
  return bounds;
}

export function withoutKey(record: Record<string, number>, key: string): Record<string, number> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

/** The JSON types of a value schema, whose own example the converter holds it to. */
export const VALUE_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean']);

/** A string schema's own example: `example`, else the first of `examples`. */
export function exampleOf(schema: Json): string | undefined {
  const example = schema['example'] ?? (Array.isArray(schema['examples']) ? schema['examples'][0] : undefined);
  return typeof example === 'string' ? example : undefined;
}

/** ajv-formats' full checks, as strict clients (and the server's formats) read a format. */
const FULL_FORMATS = (require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> }).fullFormats;

export function formatHolds(format: string, value: string): boolean {
  const known = FULL_FORMATS[format];
  const check = known && typeof known === 'object' && !(known instanceof RegExp) ? (known as { validate: unknown }).validate : known;
  if (check instanceof RegExp) return check.test(value);
  if (typeof check === 'function') return Boolean((check as (value: string) => unknown)(value));
  return true;
}

/** A document's value as a warning quotes it: JSON, at most 80 characters. */
export function clipped(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function pick(schema: Json, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => schema[key] !== undefined).map((key) => [key, schema[key]]));
}

/** A schema's own class name: from `names` (a component's, or a shared schema's), else its title. */
export function ownName(names: ReadonlyMap<object, string>): (schema: Json) => string | undefined {
  return (schema) => {
    const named = names.get(schema);
    return named === undefined ? titleName(schema) : pascal(named) || undefined;
  };
}

export function titleName(schema: Json): string | undefined {
  return typeof schema['title'] === 'string' && schema['title'].trim() ? pascal(schema['title']) : undefined;
}

/** `pet_status` / `pet-status` / `pet status` → `PetStatus`, valid as a TypeScript class name. */
export function pascal(text: string): string {
  const name = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return /^\d/.test(name) ? `N${name}` : name;
}
