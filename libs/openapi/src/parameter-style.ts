/** OpenAPI's parameter styles (3.0 and 3.1, "Style Values"). */
export type ParameterStyle = 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple' | 'label' | 'matrix';

/** How one parameter (or one form field) is written: its style and whether it explodes. */
export interface Serialization {
  style: ParameterStyle;
  explode: boolean;
}

/** Query parameters and form fields: `form`, exploded (OpenAPI's default for both). */
export const QUERY_DEFAULT: Serialization = { style: 'form', explode: true };
/** Path and header parameters: `simple`, not exploded. */
export const SIMPLE_DEFAULT: Serialization = { style: 'simple', explode: false };

type Pair = [name: string, value: string];

/**
 * The name=value pairs a query parameter (or a form field) becomes, unencoded, following the
 * OpenAPI serialisation table: `form` repeats an exploded array's name and joins an unexploded one
 * with commas (Asana's `opt_fields=name,email`); `spaceDelimited` and `pipeDelimited` join with
 * spaces or pipes; `deepObject` writes brackets (Stripe's `created[gte]=1`), nested ones too
 * (`address[city]`, `items[0][price]`), which is what APIs that use it accept.
 */
export function queryPairs(name: string, value: unknown, { style, explode }: Serialization): Pair[] {
  if (value === undefined || value === null) return [];
  if (style === 'deepObject' && typeof value === 'object') return bracketPairs(name, value);
  const delimiter = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
  if (Array.isArray(value)) {
    const items = value.map(scalar);
    return explode && style === 'form' ? items.map((item) => [name, item]) : [[name, items.join(delimiter)]];
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    if (explode && style === 'form') return entries.map(([key, v]) => [key, scalar(v)]);
    return [[name, entries.flatMap(([key, v]) => [key, scalar(v)]).join(delimiter)]];
  }
  return [[name, scalar(value)]];
}

/** Nested brackets: `{ address: { city: 'Oslo' } }` → `address[city]=Oslo`; arrays by index. */
function bracketPairs(prefix: string, value: unknown): Pair[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => bracketPairs(`${prefix}[${index}]`, item));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => bracketPairs(`${prefix}[${key}]`, item));
  return [[prefix, scalar(value)]];
}

/**
 * A path parameter's text, each value percent-encoded: `simple` (`a,b`; an object `k,v` or, exploded,
 * `k=v`), `label` (`.a.b` exploded, `.a,b` not) and `matrix` (`;id=a;id=b` exploded, `;id=a,b` not).
 */
export function pathText(name: string, value: unknown, { style, explode }: Serialization): string {
  const e = encodeURIComponent;
  const parts: { key?: string; value: string }[] = Array.isArray(value)
    ? value.map((item) => ({ value: scalar(item) }))
    : isObject(value)
      ? Object.entries(value).map(([key, item]) => ({ key, value: scalar(item) }))
      : [{ value: value === undefined || value === null ? '' : scalar(value) }];
  const isMap = isObject(value);
  const joined = (separator: string) =>
    parts.map((part) => (part.key === undefined ? e(part.value) : explode ? `${e(part.key)}=${e(part.value)}` : `${e(part.key)},${e(part.value)}`)).join(separator);
  switch (style) {
    case 'label':
      return `.${joined(explode ? '.' : ',')}`;
    case 'matrix':
      if (value === '') return `;${e(name)}`;
      if (isMap && explode) return `;${joined(';')}`;
      if (Array.isArray(value) && explode) return parts.map((part) => `;${e(name)}=${e(part.value)}`).join('');
      return `;${e(name)}=${joined(',')}`;
    default:
      return joined(',');
  }
}

/** A header parameter's value: `simple`, as in a path, unencoded. */
export function headerText(value: unknown, { explode }: Serialization): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (isObject(value)) return Object.entries(value).map(([key, item]) => (explode ? `${key}=${scalar(item)}` : `${key},${scalar(item)}`)).join(',');
  return scalar(value);
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
