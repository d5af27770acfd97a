/** A JSON pointer segment (RFC 6901) as the key it names: `~1` is `/`, `~0` is `~`. */
export function unescapeKey(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The keys a JSON pointer names, in order: `/a~1b/0` → `['a/b', '0']`, `''` → `[]`. */
export function pointerKeys(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeKey);
}

/**
 * The value at a JSON pointer (`/$defs/address`) inside `root`, or undefined. `uriFragment`: the
 * pointer comes from a `$ref` (`#/$defs/a%20b`), so each segment is percent-decoded first.
 */
export function resolvePointer(root: unknown, pointer: string, uriFragment = false): unknown {
  if (pointer === '') return root;
  let current = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapeKey(uriFragment ? decodeURIComponent(raw) : raw);
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
