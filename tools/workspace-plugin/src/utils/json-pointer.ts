/** A key as a JSON pointer segment (RFC 6901): `~` is `~0`, `/` is `~1`. */
export function escapeKey(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON pointer segment as the key it names: `~1` is `/`, `~0` is `~`. */
export function unescapeKey(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `path` with `segments` appended, each escaped: `appendPointer('/properties', 'a/b')` → `/properties/a~1b`. */
export function appendPointer(path: string, ...segments: (string | number)[]): string {
  return segments.reduce<string>((pointer, segment) => `${pointer}/${escapeKey(segment)}`, path);
}
