import { html, type SafeHtml } from './html';

/** The JSON Schema keywords the framework advertises (and a raw `inputSchema` may use). */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  [keyword: string]: unknown;
}

/** Nesting shown before the view says "…" (schemas the framework emits are far shallower). */
const MAX_DEPTH = 8;

/** A one-line type: `string (email)`, `"a" | "b"`, `Greeting[]`, `TeamResult | ToolError`, `integer | null`. */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? schema.$ref;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const arms = schema.anyOf ?? schema.oneOf;
  if (arms) return arms.map(typeLabel).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return typeKeywordLabel(schema);
}

/** The label of a schema by its single `type`: `Greeting[]`, `TeamResult`, `string (email)`. */
function typeKeywordLabel(schema: JsonSchema): string {
  if (schema.type === 'array') {
    const item = schema.items ? typeLabel(schema.items) : 'any';
    return item.includes(' ') ? `(${item})[]` : `${item}[]`;
  }
  if (schema.type === 'object') return schema.title ?? 'object';
  if (schema.type === 'string' && schema.format) return `string (${schema.format})`;
  return (schema.type as string | undefined) ?? 'any';
}

/** The constraints a caller must meet or a reader can rely on, in words. */
export function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  const range = (low: number | undefined, high: number | undefined, unit: string) => {
    if (low !== undefined && high !== undefined) out.push(`${unit} ${low}–${high}`);
    else if (low !== undefined) out.push(`${unit} ≥ ${low}`);
    else if (high !== undefined) out.push(`${unit} ≤ ${high}`);
  };
  range(schema.minLength, schema.maxLength, 'length');
  range(schema.minimum, schema.maximum, 'value');
  if (schema.exclusiveMinimum !== undefined) out.push(`value > ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`value < ${schema.exclusiveMaximum}`);
  range(schema.minItems, schema.maxItems, 'items');
  if (schema.uniqueItems) out.push('items unique');
  if (schema.pattern !== undefined) out.push(`pattern /${schema.pattern}/`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.type === 'array' && schema.items) out.push(...constraintsOf(schema.items).map((c) => `each: ${c}`));
  return out;
}

/** The object schemas a value of this schema may be, so their properties can be shown. */
function objectsWithin(schema: JsonSchema): JsonSchema[] {
  if (schema.type === 'array' && schema.items) return objectsWithin(schema.items);
  const arms = schema.anyOf ?? schema.oneOf;
  if (arms) return arms.flatMap(objectsWithin);
  return schema.properties ? [schema] : [];
}

/**
 * A schema as a reader wants it: an object's properties as a table (name, type, required or not,
 * description and constraints), nested objects inside their row, and a union as its arms, each
 * with its own table.
 */
export function schemaView(schema: JsonSchema, depth = 0): SafeHtml {
  if (depth > MAX_DEPTH) return html`<p class="muted">…</p>`;
  const arms = schema.properties ? undefined : (schema.anyOf ?? schema.oneOf);
  if (arms && arms.some((arm) => arm.properties)) {
    return html`<p class="muted">One of:</p>${arms.map((arm) => html`<div class="arm"><h5>${typeLabel(arm)}</h5>${arm.description && html`<p>${arm.description}</p>`}${schemaView(arm, depth + 1)}</div>`)}`;
  }
  if (!schema.properties) return html`<p><code>${typeLabel(schema)}</code>${constraintsOf(schema).map((c) => html` <span class="constraint">${c}</span>`)}</p>`;
  const entries = Object.entries(schema.properties);
  if (entries.length === 0) return html`<p class="muted">No properties.</p>`;
  const required = new Set(schema.required ?? []);
  return html`<table class="schema"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>${entries.map(
    ([name, property]) => html`<tr>
<td><code class="prop">${name}</code>${required.has(name) ? html`<span class="req">required</span>` : html`<span class="opt">optional</span>`}</td>
<td><code>${typeLabel(property)}</code></td>
<td>${property.description}${constraintsOf(property).map((c) => html` <span class="constraint">${c}</span>`)}${objectsWithin(property).map(
      (nested) => html`<div class="nested">${nested.title && html`<h5>${nested.title}</h5>`}${schemaView(nested, depth + 1)}</div>`,
    )}</td>
</tr>`,
  )}</tbody></table>`;
}
