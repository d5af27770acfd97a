// How a definition error names a value it was given where a class was expected.

/** A class by its name; anything else as written. */
export function nameOf(value: unknown): string {
  if (typeof value === 'function') return value.name || 'anonymous class';
  if (value === undefined || value === null) return String(value);
  return typeof value === 'object' ? JSON.stringify(value) ?? typeof value : String(value);
}

/** What was given instead of a class, and what to pass instead. */
export function describeNonClass(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'function') return `${value.name || 'an anonymous function'}, which is not a class`;
  if (typeof value === 'object' && value !== null) return 'an object (pass the class, not an instance or a literal)';
  return String(value);
}

/** A list entry by its kind and value: `an object (Date)`, `number 3`. */
export function describeEntry(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object (${(value as object).constructor?.name ?? 'Object'})`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
