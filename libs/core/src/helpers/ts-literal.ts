/**
 * Values written into TypeScript in the style of the code around them: strings in single quotes,
 * object keys bare where they are identifiers. JSON.stringify would write double quotes beside the
 * single-quoted imports and decorators the templates write. The one printer of literals: the
 * workspace plugin's generators and code mode's declarations both use it (imports nothing, and is
 * exported on its own as `@toolsets/core/ts-literal`).
 */
export function tsLiteral(value: unknown): string {
  if (typeof value === 'string') return tsString(value);
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([key, item]) => `${tsKey(key)}: ${tsLiteral(item)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** A string as a single-quoted literal, with JSON's escapes (so control characters and U+2028 stay escaped). */
export function tsString(text: string): string {
  const body = JSON.stringify(text)
    .slice(1, -1)
    .replace(/\\(["\\])|'/g, (match, escaped: string | undefined) => (escaped === '"' ? '"' : escaped === '\\' ? '\\\\' : "\\'"));
  return `'${body}'`;
}

/** An object key: bare when it is an identifier, else quoted. */
export function tsKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : tsString(key);
}
