/** A JSON pointer segment (RFC 6901) as the key it names: `~1` is `/`, `~0` is `~`. */
export function unescapeKey(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The keys a JSON pointer names, in order: `/a~1b/0` → `['a/b', '0']`, `''` → `[]`. */
export function pointerKeys(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeKey);
}
