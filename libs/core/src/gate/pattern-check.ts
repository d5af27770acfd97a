// A check the gate runs so that compiling a schema on its first call (compiled/lazy-validator.ts)
// cannot fail there.

/** Every `pattern` in a schema that TypeBox could not compile (it uses the `u` flag), with its path. */
export function invalidPatterns(schema: unknown, path = ''): { path: string; pattern: string; reason: string }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: { path: string; pattern: string; reason: string }[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string') {
      try {
        new RegExp(value, 'u');
      } catch (error) {
        found.push({ path: path || '/', pattern: value, reason: (error as Error).message });
      }
    } else if (typeof value === 'object' && value !== null) {
      found.push(...invalidPatterns(value, `${path}/${key}`));
    }
  }
  return found;
}
