/** The parts of a JSON Schema a sample is built from. */
interface SampleSchema {
  type?: string | string[];
  properties?: Record<string, SampleSchema>;
  items?: SampleSchema;
  anyOf?: SampleSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  format?: string;
  minimum?: number;
  minItems?: number;
  $ref?: string;
  $defs?: Record<string, SampleSchema>;
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
  time: '09:30:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  uuid: '0b9f5c1e-8d3a-4f7e-9a51-2c6d8e4f1a37',
};
const MAX_DEPTH = 6;
/** Items per list: a preview needs a few, and `minItems: 2000` nested three deep must not build eight billion. */
const MAX_ITEMS = 3;
/** Values in one whole sample; past it, lists and objects are left empty. */
const MAX_NODES = 500;

/**
 * A value shaped like `schema`, for the catalog page to show a view with before anyone calls the
 * tool: each declared example or default where there is one, else one item per list (up to three
 * where `minItems` asks for more) and a plausible value per type. The first arm of a union (a
 * tool's result before its ToolError). Bounded in depth, items and values, so a schema cannot
 * make a request to the page build a huge value; such a sample may have fewer items than the
 * schema asks for, which a preview can live with.
 */
export function sampleValue(schema: object, name = 'value'): unknown {
  const root = schema as SampleSchema;
  return sampleOf(root, root, name, 0, { left: MAX_NODES });
}

function sampleOf(root: SampleSchema, schema: SampleSchema, name: string, depth: number, budget: { left: number }): unknown {
  budget.left--;
  if (schema.$ref) return sampleOf(root, root.$defs?.[schema.$ref.split('/').pop()!] ?? {}, name, depth, budget);
  const declared = declaredSample(schema);
  if (declared !== undefined) return declared;
  if (schema.anyOf) return sampleOf(root, schema.anyOf.find((arm) => arm.type !== 'null') ?? schema.anyOf[0], name, depth, budget);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties || type === 'array') return containerSample(root, schema, type, name, depth, budget);
  return scalarSample(schema, type, name);
}

/** An object's or a list's sample: empty once the depth or the budget is spent. */
function containerSample(root: SampleSchema, schema: SampleSchema, type: string | undefined, name: string, depth: number, budget: { left: number }): unknown {
  const spent = depth >= MAX_DEPTH || budget.left <= 0;
  if (type === 'object' || schema.properties) {
    return spent ? {} : Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, sampleOf(root, property, key, depth + 1, budget)]));
  }
  return spent ? [] : Array.from({ length: Math.min(MAX_ITEMS, Math.max(1, schema.minItems ?? 1)) }, () => sampleOf(root, schema.items ?? {}, name, depth + 1, budget));
}

/** What the schema itself offers as a value: an example, the default, the const, the first enum value. */
function declaredSample(schema: SampleSchema): unknown {
  return schema.examples?.[0] ?? schema.default ?? schema.const ?? schema.enum?.[0];
}

function scalarSample(schema: SampleSchema, type: string | undefined, name: string): unknown {
  if (type === 'integer' || type === 'number') return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
  if (type === 'boolean') return true;
  if (type === 'string') return FORMATS[schema.format ?? ''] ?? stringSample(name);
  return null;
}

/** A string named like a moment (`createdAt`, `dueDate`, `startTime`) is one; any other says which field it stands for. */
function stringSample(name: string): string {
  if (name === 'message') return 'A sample result, made up from the output schema.';
  if (/(At|Date|Time|_at|_date|_time)$/.test(name) || /^(date|time|timestamp)$/i.test(name)) return FORMATS['date-time'];
  return `sample ${name}`;
}
