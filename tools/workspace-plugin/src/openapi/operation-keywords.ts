import type { HttpMethod } from './operation-model';

/**
 * What people call an operation of each shape: a GET on a collection lists, finds and searches;
 * on one item it gets and shows; POST creates and adds (on one item, as many APIs use it, it
 * updates); PUT and PATCH update, change and set; DELETE deletes, removes and cancels. Written into the generated `@Tool({ keywords })`, so
 * discovery search finds `meetings` (a GET) for "list meetings" on an API that never says "list".
 */
const VERBS: Readonly<Record<'collection' | 'item' | 'post' | 'update' | 'delete', readonly string[]>> = {
  collection: ['list', 'find', 'search'],
  item: ['get', 'show'],
  post: ['create', 'add'],
  update: ['update', 'change', 'set'],
  delete: ['delete', 'remove', 'cancel'],
};

/** Path segments that say nothing about what the operation acts on. */
const NOT_A_NOUN = /^(v\d+([._-]?\w+)?|\d+(\.\d+)*|api|rest)$/i;

/** The literal segments of a path that name things (`/v1/customers/{id}/sources` → customers, sources). */
export function pathNouns(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment !== '' && !segment.includes('{') && !NOT_A_NOUN.test(segment));
}

/** The group of an untagged operation: its path's first noun (`/v1/customers/{id}` → `customers`). */
export function pathGroup(path: string): string | undefined {
  return pathNouns(path)[0];
}

/**
 * The words discovery search should also find an operation by: the verbs of its method and path
 * shape, each noun of its path in singular and plural, its first tag, and the document's own
 * `x-mcp-keywords` and the config's `keywords` for it. Lower case, each once, in that order.
 */
export function operationKeywords(method: HttpMethod, path: string, tags: readonly string[], extra: readonly string[] = []): string[] {
  const item = path.trimEnd().replace(/\/+$/, '').endsWith('}');
  const verbs =
    method === 'get' || method === 'head'
      ? VERBS[item ? 'item' : 'collection']
      : method === 'post'
        ? VERBS[item ? 'update' : 'post']
        : method === 'put' || method === 'patch'
          ? VERBS.update
          : method === 'delete'
            ? VERBS.delete
            : [];
  const nouns = pathNouns(path).flatMap((segment) => {
    const phrase = segment.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/[-_.]+/g, ' ').toLowerCase().trim();
    return phrase ? [singular(phrase), plural(phrase)] : [];
  });
  const words = [...verbs, ...nouns, ...(tags[0] ? [tags[0].toLowerCase()] : []), ...extra.map((word) => word.toLowerCase())];
  return [...new Set(words.map((word) => word.trim().slice(0, 64)).filter(Boolean))].slice(0, 64);
}

/** `custom fields` → `custom field`, `policies` → `policy`; the last word only. */
function singular(phrase: string): string {
  if (/ies$/.test(phrase)) return `${phrase.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(phrase)) return phrase;
  if (/(ch|sh|x|z)es$/.test(phrase)) return phrase.slice(0, -2);
  return phrase.endsWith('s') ? phrase.slice(0, -1) : phrase;
}

/** `custom field` → `custom fields`, `policy` → `policies`; the last word only. */
function plural(phrase: string): string {
  const one = singular(phrase);
  if (/[^aeiou]y$/.test(one)) return `${one.slice(0, -1)}ies`;
  if (/(s|ch|sh|x|z)$/.test(one)) return `${one}es`;
  return `${one}s`;
}
