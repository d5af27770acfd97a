import { tsKey, tsLiteral } from '@toolsets/core/ts-literal';

/** The JSON Schema keywords the printer reads (what the catalog's TypeBox schemas use). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: unknown[];
  [keyword: string]: unknown;
}

/**
 * How the printer names types: `$ref`s to `#/$defs/X` by `rename(X)`, and, where `shape` is given,
 * an object type written out in the schema by the name of a declared type of the same shape (what
 * a model reads once, not at every place the API repeats it).
 */
export type TypeNaming = ((definition: string) => string) & {
  shape?: (schema: JsonSchema) => string | undefined;
  /** Whether a property's JSDoc is still to be written where its type is the declared type `type` (the same words repeated at every use are written once). */
  firstDoc?: (type: string, doc: string) => boolean;
  /**
   * The name a nested object type is declared under instead of being written out where it is
   * (`key`: the property that holds it), or undefined to write it inline.
   */
  nested?: (schema: JsonSchema, key: string) => string | undefined;
};

/**
 * The shape of an object schema, for finding the same type declared elsewhere: its JSON without
 * the top-level words (title, description, examples, default). Only objects of two or more properties
 * that refer to no `$defs` (whose names differ from tool to tool).
 */
export function shapeKey(schema: JsonSchema): string | undefined {
  if (!schema.properties || Object.keys(schema.properties).length < 2) return undefined;
  const { description: _description, title: _title, examples: _examples, default: _default, ...shape } = schema;
  const key = JSON.stringify(shape);
  return key.includes('"$ref"') ? undefined : key;
}

/**
 * A JSON Schema as a TypeScript type; `$ref`s to `#/$defs/X` name `rename(X)`. `key` is the
 * property that holds it, when it is nested in an object (`rename.nested` may name it then).
 */
export function schemaType(schema: JsonSchema | boolean | undefined, rename: TypeNaming, indent = '', key?: string): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (schema.$ref) return schema.$ref.startsWith('#/$defs/') ? rename(decodeURIComponent(schema.$ref.slice('#/$defs/'.length))) : 'unknown';
  const declared = rename.shape?.(schema);
  if (declared) return declared;
  if (schema.const !== undefined) return tsLiteral(schema.const);
  if (schema.enum) return schema.enum.map((value) => tsLiteral(value)).join(' | ') || 'never';
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map((arm) => wrap(schemaType({ ...inherited(schema), ...arm }, rename, indent, key))).join(' | ') || 'never';
  if (schema.allOf) return schema.allOf.map((part) => wrap(schemaType(part, rename, indent, key))).join(' & ') || 'unknown';
  if (Array.isArray(schema.type)) return schema.type.map((type) => wrap(schemaType({ ...schema, type }, rename, indent, key))).join(' | ');
  const nested = key !== undefined && schema.properties && (schema.type === undefined || schema.type === 'object') ? rename.nested?.(schema, key) : undefined;
  if (nested) return nested;
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      if (schema.prefixItems) return `[${schema.prefixItems.map((item) => schemaType(item, rename, indent)).join(', ')}]`;
      return `${wrap(schemaType(Array.isArray(schema.items) ? { anyOf: schema.items } : schema.items, rename, indent, key === undefined ? undefined : singular(key)))}[]`;
    case 'object':
      return objectType(schema, rename, indent);
    default:
      return schema.properties ? objectType(schema, rename, indent) : 'unknown';
  }
}

/** An object schema as a type literal, a property a line, each with its JSDoc. */
export function objectType(schema: JsonSchema, rename: TypeNaming, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const doc = jsDoc(property, inner);
    const declared = typeof property === 'object' && rename.firstDoc ? rename.shape?.(property) : undefined;
    if (doc && (declared === undefined || rename.firstDoc!(declared, doc.trim()))) lines.push(doc);
    const optional = schema.required?.includes(name) ? '' : '?';
    lines.push(`${inner}${tsKey(name)}${optional}: ${schemaType(property, rename, inner, name)};`);
  }
  const rest = schema.additionalProperties;
  if (rest !== undefined && rest !== false && !(rest === true && lines.length > 0)) lines.push(`${inner}[key: string]: ${schemaType(rest, rename, inner)};`);
  for (const pattern of Object.values(schema.patternProperties ?? {})) lines.push(`${inner}[key: string]: ${schemaType(pattern, rename, inner)};`);
  if (lines.length === 0) return rest === false ? '{}' : 'Record<string, unknown>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** A JSDoc comment from a schema's description, format, constraints, default and examples; empty when it has none. */
export function jsDoc(schema: JsonSchema | boolean | undefined, indent: string): string {
  if (typeof schema !== 'object') return '';
  const notes = [
    schema.description,
    schema.format && `Format: ${schema.format}.`,
    schema.pattern && `Pattern: ${schema.pattern}.`,
    bounds(schema),
    schema.default !== undefined && `Default: ${JSON.stringify(schema.default)}.`,
    schema.examples?.length ? `Example: ${schema.examples.map((example) => JSON.stringify(example)).join(', ')}.` : undefined,
  ].filter((note): note is string => typeof note === 'string' && note.length > 0);
  if (notes.length === 0) return '';
  const text = notes.join(' ').replace(/\*\//g, '*\\/');
  return text.includes('\n') ? `${indent}/**\n${text.split('\n').map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */` : `${indent}/** ${text} */`;
}

/** A schema's numeric and length bounds as one sentence (`≥ 1, ≤ 50.`, `1 to 100 characters.`), or undefined. */
function bounds(schema: JsonSchema): string | undefined {
  const parts = [
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.exclusiveMinimum !== undefined && `> ${schema.exclusiveMinimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.exclusiveMaximum !== undefined && `< ${schema.exclusiveMaximum}`,
    span(schema.minLength, schema.maxLength, 'character'),
    span(schema.minItems, schema.maxItems, 'item'),
  ].filter(Boolean);
  const text = parts.join(', ');
  // A sentence of its own after the description: `Who to greet. 1 to 100 characters.`
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : undefined;
}

/** A length's bounds in words: `1 to 100 characters`, `at least 1 item`, `at most 1 character`. */
function span(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const units = (count: number) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${units(max)}` : `${min} to ${units(max)}`;
  if (min !== undefined) return `at least ${units(min)}`;
  if (max !== undefined) return `at most ${units(max)}`;
  return undefined;
}

/** The name of one item of a list held by `key` (`values` → `value`, `entries` → `entry`), for naming its type. */
function singular(key: string): string {
  if (/ies$/.test(key)) return `${key.slice(0, -3)}y`;
  if (/[^su]s$/.test(key)) return key.slice(0, -1);
  return `${key}Item`;
}

/** What an `anyOf` arm keeps of its parent (the `type: 'object'` an arm of properties alone leaves out). */
function inherited(schema: JsonSchema): JsonSchema {
  return schema.type && !Array.isArray(schema.type) ? { type: schema.type } : {};
}

/** The type in parentheses when it has a `|` or `&` outside any brackets, braces or quotes (so `[]` or a further union binds right). */
function wrap(type: string): string {
  return hasTopLevelOperator(type) ? `(${type})` : type;
}

export function hasTopLevelOperator(type: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < type.length; i++) {
    const char = type[i]!;
    // JSDoc comments hold prose: an apostrophe or a bracket there is no part of the type.
    if (!quote && char === '/' && type[i + 1] === '*') {
      const end = type.indexOf('*/', i + 2);
      i = end < 0 ? type.length : end + 1;
      continue;
    }
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if ('{[(<'.includes(char)) depth++;
    else if ('}])>'.includes(char)) depth--;
    else if (depth === 0 && (char === '|' || char === '&')) return true;
  }
  return false;
}
