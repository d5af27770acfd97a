/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export function isScopeToken(value: unknown): value is string {
  return typeof value === 'string' && SCOPE_TOKEN.test(value);
}

/** Scopes sorted, each once: the form every comparison and cache key uses. */
export function sortedScopes(scopes: Iterable<string>): string[] {
  return [...new Set(scopes)].sort();
}

/** The scopes of `required` that `granted` lacks, in `required`'s order (empty: allowed). */
export function missingScopes(required: readonly string[], granted: ReadonlySet<string>): string[] {
  return required.length === 0 ? [] : required.filter((scope) => !granted.has(scope));
}
