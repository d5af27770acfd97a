type Json = Record<string, unknown>;

/** A tool's schema with its local `$ref`s replaced by what they point at, and the names of its definitions. */
export interface DereferencedSchema {
  schema: Json;
  /** Each `$defs`/`definitions` entry by its key: the class name a definition's object takes. */
  names: Map<object, string>;
  /** References that could not be followed (remote, or pointing nowhere): their schemas become open values. */
  unresolved: string[];
}

/**
 * An MCP tool's `inputSchema` or `outputSchema` without `$ref`s: each local reference (`#/$defs/Address`,
 * `#/definitions/…`, any JSON pointer into the schema itself) is replaced by the object it points at,
 * so a definition used twice is one object (one class) and a recursive one becomes an object cycle,
 * as the OpenAPI reader leaves documents. A copy: the snapshot's own schema is never changed.
 */
export function dereferenceLocal(original: unknown): DereferencedSchema {
  const root = structuredClone(original ?? {}) as Json;
  const names = new Map<object, string>();
  const unresolved: string[] = [];
  for (const key of ['$defs', 'definitions']) {
    const defs = root[key];
    if (typeof defs === 'object' && defs !== null) for (const [name, schema] of Object.entries(defs)) if (typeof schema === 'object' && schema !== null) names.set(schema, name);
  }
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#')) return undefined;
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (typeof target !== 'object' || target === null || !(part in target)) return undefined;
      target = (target as Json)[part];
    }
    return target;
  };
  /** Follows a chain of references to a schema that is not itself a bare reference. */
  const follow = (value: Json, seen: Set<string> = new Set()): unknown => {
    const ref = value['$ref'];
    if (typeof ref !== 'string') return value;
    if (seen.has(ref)) return undefined;
    seen.add(ref);
    const target = resolve(ref);
    if (typeof target !== 'object' || target === null) return undefined;
    const siblings = Object.keys(value).filter((key) => key !== '$ref');
    const followed = follow(target as Json, seen);
    if (followed === undefined) return undefined;
    // A reference with siblings (a description beside it) is a new schema: the target with them on top.
    return siblings.length === 0 ? followed : { ...(followed as Json), ...Object.fromEntries(siblings.map((key) => [key, value[key]])) };
  };
  const visited = new Set<object>();
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || visited.has(value)) return;
    visited.add(value);
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
    for (const [key, child] of entries) {
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
      if (typeof child === 'object' && child !== null && typeof (child as Json)['$ref'] === 'string') {
        const replaced = follow(child as Json);
        const ref = (child as Json)['$ref'] as string;
        if (replaced === undefined) {
          unresolved.push(ref);
          (value as Json)[key as string] = { description: `An unresolved reference (${ref}): any JSON value.` };
          continue;
        }
        (value as Json)[key as string] = replaced;
        walk(replaced);
      } else walk(child);
    }
  };
  const top = typeof root['$ref'] === 'string' ? follow(root) : root;
  walk(top);
  return { schema: (top ?? {}) as Json, names, unresolved };
}
