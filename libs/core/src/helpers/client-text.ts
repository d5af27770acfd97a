/** How much of a client-supplied string goes into a log line or a reply. */
export const CLIENT_TEXT_LIMIT = 200;

/**
 * A client-supplied string cut to `limit` characters, noting the original length, so a hostile
 * value (a megabyte-long tool name, a garbage header) cannot amplify into logs or replies.
 */
export function clip(value: string, limit = CLIENT_TEXT_LIMIT): string {
  if (value.length <= limit) return value;
  return `${value.slice(0, limit)}… (${value.length} characters)`;
}

/** A count with its noun, singular for one: `1 tool`, `3 tools`, `0 groups`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
