/**
 * Loads packages core leaves optional (peer dependencies most servers never need), by name; the
 * ones not installed are listed instead of thrown, so the caller can say how to install them.
 */
export function loadOptionalPackages(names: readonly string[], load: (name: string) => unknown = require): { loaded: Map<string, unknown>; missing: string[] } {
  const loaded = new Map<string, unknown>();
  const missing: string[] = [];
  for (const name of names) {
    try {
      loaded.set(name, load(name));
    } catch (error) {
      const notFound = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' && (error as Error).message.includes(`'${name}'`);
      if (!notFound) throw error;
      missing.push(name);
    }
  }
  return { loaded, missing };
}

/** `npm install` arguments for packages by name and range. */
export function installCommand(packages: Readonly<Record<string, string>>): string {
  return `npm install ${Object.entries(packages).map(([name, range]) => `${name}@${range}`).join(' ')}`;
}
