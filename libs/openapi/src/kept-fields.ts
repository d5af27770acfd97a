/**
 * The fields of an answer a curated tool keeps (`openapi.config.json` `fields`), as a tree:
 * `{ number: true, user: { login: true } }`. `true` keeps the whole value; arrays are walked through.
 */
export type KeptFields = { readonly [field: string]: true | KeptFields };

/**
 * The answer cut down to the kept fields, before it becomes the result: the result class declares
 * only these, so nothing else would be sent anyway, and the development warning about undeclared
 * keys keeps meaning what it says (a key the document does not declare), not "a field you chose
 * to leave out". A field the answer lacks stays absent; the result's own check decides about it.
 */
export function keepFields(value: unknown, kept: KeptFields): unknown {
  if (Array.isArray(value)) return value.map((item) => keepFields(item, kept));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const entries: [string, unknown][] = [];
  for (const [field, below] of Object.entries(kept)) {
    if (!Object.prototype.hasOwnProperty.call(source, field)) continue;
    entries.push([field, below === true ? source[field] : keepFields(source[field], below)]);
  }
  // fromEntries defines own properties: a field named like an Object.prototype member stays data.
  return Object.fromEntries(entries);
}
