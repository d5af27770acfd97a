import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

/** Keys whose values are data, not schemas: a `title` inside an example is no schema's name. */
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default', 'x-examples']);

/**
 * A schema's identity by content: the same for two copies of one schema wherever a document
 * repeats it, different for any difference, and independent of what else the document holds or
 * which operations are included. Memoised per object; a cycle (a dereferenced recursive schema)
 * counts as a marker where it closes, which the first walk of the document fixes for good.
 */
export class SchemaIdentity {
  private readonly hashes = new WeakMap<object, string>();
  private readonly open: object[] = [];

  /** Eight hex digits of the content's SHA-256. */
  of(value: unknown): string {
    return this.full(value).slice(0, 8);
  }

  private full(value: unknown): string {
    if (typeof value !== 'object' || value === null) return digest(JSON.stringify(value) ?? 'undefined');
    const known = this.hashes.get(value);
    if (known !== undefined) return known;
    if (this.open.includes(value)) return digest('cycle');
    this.open.push(value);
    try {
      const parts = Array.isArray(value)
        ? value.map((item) => this.full(item))
        : Object.keys(value)
            .sort()
            .map((key) => `${JSON.stringify(key)}:${this.full((value as Json)[key])}`);
      const hash = digest(`${Array.isArray(value) ? '[' : '{'}${parts.join(',')}`);
      this.hashes.set(value, hash);
      return hash;
    } finally {
      this.open.pop();
    }
  }

  /**
   * The class names (from `nameOf`: a component's name, else a title) that two or more different
   * schemas of the whole document would take. Those get their identity after the name, so which
   * operations are included never decides which of them gets the plain name.
   */
  ambiguousNames(document: unknown, nameOf: (schema: Json) => string | undefined): Set<string> {
    const byName = new Map<string, Set<string>>();
    const seen = new WeakSet<object>();
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null || seen.has(value)) return;
      seen.add(value);
      if (Array.isArray(value)) return value.forEach(walk);
      const name = nameOf(value as Json);
      if (name !== undefined) {
        const identities = byName.get(name) ?? new Set<string>();
        identities.add(this.of(value));
        byName.set(name, identities);
      }
      for (const [key, child] of Object.entries(value)) if (!DATA_KEYS.has(key)) walk(child);
    };
    walk(document);
    return new Set([...byName].filter(([, identities]) => identities.size > 1).map(([name]) => name));
  }
}

/**
 * A name for each unnamed schema inside a named one (a component, a titled schema), after the
 * first place the document has it: `PullRequestMinimalHead` for the `head` object of the
 * `pull-request-minimal` component, however the generator reaches it (the same object is also a
 * property of every component that extends that one with `allOf`). So a class's name depends on
 * the document, never on which operation the generator converts first or which are included.
 * Components come first, then the rest in the document's order. Names follow the generator's
 * own: `<Parent><Property>`, `Item`, `Value`, `Option<n>`; allOf parts and the one arm of a
 * nullable union pass their parent's name on, as the generator does. `nameOf` gives the names a
 * schema has of its own (a component's, a title).
 */
export function positionNames(document: unknown, nameOf: (schema: Json) => string | undefined, pascal: (text: string) => string): Map<object, string> {
  const names = new Map<object, string>();
  const seen = new WeakSet<object>();
  /** `name`: the name here, or undefined outside every named schema; `passed`: the parent's name, handed on unchanged. */
  const walk = (value: unknown, name: string | undefined, passed = false): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach((item) => walk(item, undefined));
    const own = nameOf(value as Json);
    if (own === undefined && name !== undefined && !passed) names.set(value, name);
    const here = own ?? name;
    const under = (suffix: string) => (here === undefined ? undefined : `${here}${suffix}`);
    for (const [key, child] of Object.entries(value)) {
      if (DATA_KEYS.has(key)) continue;
      if (key === 'properties' && typeof child === 'object' && child !== null) {
        for (const [property, schema] of Object.entries(child)) walk(schema, under(pascal(property)));
      } else if (key === 'items') walk(child, under('Item'));
      else if (key === 'additionalProperties') walk(child, under('Value'));
      else if (key === 'allOf' && Array.isArray(child)) child.forEach((arm) => walk(arm, here, true));
      else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(child)) {
        const arms = child.filter((arm) => !(typeof arm === 'object' && arm !== null && (arm as Json)['type'] === 'null'));
        arms.forEach((arm, index) => walk(arm, arms.length === 1 ? here : under(`Option${index + 1}`), arms.length === 1));
      } else walk(child, undefined);
    }
  };
  const components = (document as { components?: unknown } | null)?.components;
  walk(components, undefined);
  walk(document, undefined);
  return names;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
