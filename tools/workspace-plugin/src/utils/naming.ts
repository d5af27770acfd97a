const KEBAB_CASE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const HEADER_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** Throws a message with the fix when `value` is not kebab-case (`search-books`). */
export function assertKebabCase(kind: string, value: string | undefined): asserts value is string {
  if (!value || !KEBAB_CASE.test(value)) {
    const suggestion = (value ?? '')
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase();
    throw new Error(
      `${kind} name ${JSON.stringify(value ?? '')} must be kebab-case: lower-case letters and digits separated by single dashes, starting with a letter` +
        (suggestion && KEBAB_CASE.test(suggestion) ? ` (for example '${suggestion}').` : '.'),
    );
  }
}

/** Lower-cases a header name and refuses anything that is not an HTTP token. */
export function normalizeHeader(header: string): string {
  const lowered = header.trim().toLowerCase();
  if (!HEADER_NAME.test(lowered)) {
    throw new Error(`Credential header ${JSON.stringify(header)} is not a valid HTTP header name; use letters, digits and dashes, e.g. 'x-api-key'.`);
  }
  return lowered;
}

/** `search-books` → `search_books`, the form MCP tool names take. */
export const snakeCase = (kebab: string) => kebab.replace(/-/g, '_');
