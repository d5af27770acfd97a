/** The input schema of a member that takes no arguments: an empty object, nothing else allowed. */
export const NO_ARGS_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}), additionalProperties: false });

/** Every `$ref` value in a schema, however deep. */
export function refsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (key === '$ref' && typeof item === 'string' ? [item] : refsOf(item)));
}

/** A JSON-clean copy: TypeBox keeps its markers in non-enumerable keys, which JSON drops. */
export function toWire<T>(value: object): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
