import { existsSync, readFileSync } from 'node:fs';

/** The `version` of a package.json, or undefined when the file or the field is missing. */
export function readVersion(packagePath: string): string | undefined {
  if (!existsSync(packagePath)) return undefined;
  const version = (JSON.parse(readFileSync(packagePath, 'utf-8')) as { version?: unknown }).version;
  return typeof version === 'string' ? version : undefined;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
