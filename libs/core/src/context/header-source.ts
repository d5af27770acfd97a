import type { HeaderSource } from './request-context';

/** Headers of an HTTP request (a fetch `Headers`, already case-insensitive). */
export function headersOf(headers: Headers): HeaderSource {
  return {
    get: (name) => headers.get(name) ?? undefined,
    entries: () => Object.fromEntries(headers.entries()),
  };
}

/** Fixed headers for a whole connection (in-memory tests, or a proxy that injects them). */
export function fixedHeaders(record: Readonly<Record<string, string>>): HeaderSource {
  const lowered = Object.fromEntries(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    get: (name) => lowered[name],
    entries: () => ({ ...lowered }),
  };
}

export const NO_HEADERS: HeaderSource = fixedHeaders({});
