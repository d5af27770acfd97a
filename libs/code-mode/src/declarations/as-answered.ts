import type { JsonSchema } from './schema-type';

/**
 * A result schema as code mode declares it to programs: every property of every object present
 * (a `required` that lists them all), nullable ones still `| null`. Many API documents list no
 * `required` at all, so every field of every answer would be optional and a program that reads
 * `issue.number` as the number the API sends would be refused until it wrote `?.`, `??` or `!`
 * on every field. The server checks every answer against the tool's own schema, so what a program
 * reads is what the API sent; a field the API did leave out is `undefined` at run time, and the
 * program's error then says so (`MISSING_FIELD_HINT`). Arguments keep their own optionality: a
 * wrong argument, a misspelt field or a string used as a number is still refused before it runs.
 */
export function asAnswered(schema: JsonSchema): JsonSchema {
  return present(schema) as JsonSchema;
}

/** Said with a program's TypeError from reading a property of `undefined` (or `null`). */
export const MISSING_FIELD_HINT =
  "Code mode declares every field of a tool's result as present; an answer may still leave one out where the tool's schema marks it optional: read such a field with ?. or check it with 'in' first.";

const NESTED_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const NESTED_MAPS = ['properties', 'patternProperties', '$defs'] as const;

function present(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(present);
  if (typeof node !== 'object' || node === null) return node;
  const schema = node as JsonSchema;
  const out: JsonSchema = { ...schema };
  for (const key of NESTED_MAPS) {
    const map = schema[key];
    if (map) out[key] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, present(child) as JsonSchema]));
  }
  for (const key of NESTED_LISTS) if (schema[key]) out[key] = present(schema[key]) as JsonSchema[];
  if (schema.items !== undefined) out.items = present(schema.items) as JsonSchema;
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = present(schema.additionalProperties) as JsonSchema;
  if (schema.properties && Object.keys(schema.properties).length > 0) out.required = Object.keys(schema.properties);
  return out;
}
