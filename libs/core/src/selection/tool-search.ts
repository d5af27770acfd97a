import MiniSearch from 'minisearch';
import type { CompiledTool } from '../compiled/tool-catalog';

/** Words too common in tool descriptions and requests to tell tools apart. */
const STOP_WORDS = new Set('a an and are as at be by can do does for from how i in into is it its me my of on or please that the this to use what when which with you your'.split(' '));

/**
 * Words API operations spell another way (`organization` is `org` in most names), folded on both
 * sides of the index so either spelling finds both.
 */
const SAME_WORD: Readonly<Record<string, string>> = {
  organization: 'org',
  organizations: 'org',
  repository: 'repo',
  repositories: 'repo',
  configuration: 'config',
  information: 'info',
  application: 'app',
  applications: 'app',
  identifier: 'id',
};

/**
 * The verbs people use for what operation names call create, get, update and delete: a query
 * word also searches for the operation's verb ("open an issue" finds `issues_create`).
 */
const ALSO_MEANS: Readonly<Record<string, string>> = {
  open: 'create',
  new: 'create',
  add: 'create',
  make: 'create',
  publish: 'create',
  post: 'create',
  show: 'get',
  fetch: 'get',
  read: 'get',
  retrieve: 'get',
  view: 'get',
  find: 'get',
  edit: 'update',
  change: 'update',
  modify: 'update',
  rename: 'update',
  close: 'update',
  reopen: 'update',
  remove: 'delete',
  erase: 'delete',
  destroy: 'delete',
};

/** One ranked match. */
export interface SearchHit {
  name: string;
  score: number;
}

/**
 * BM25 ranking (minisearch's BM25+) over every tool of a catalog: its name split into words, its
 * title, description, argument names and descriptions, and its toolset's name and description.
 * Built once, on the first search; a search is filtered to what the caller may see.
 */
export class ToolSearch {
  readonly #index: MiniSearch<{ id: string }>;

  constructor(tools: Iterable<CompiledTool>) {
    this.#index = new MiniSearch({
      fields: ['name', 'title', 'description', 'args', 'group'],
      storeFields: [],
      tokenize: words,
      processTerm: term,
      searchOptions: {
        boost: { name: 3, title: 2, group: 1.5, description: 1, args: 0.8 },
        prefix: (word) => word.length >= 4,
        fuzzy: (word) => (word.length >= 6 ? 0.15 : false),
        combineWith: 'OR',
        tokenize: words,
        processTerm: queryTerms,
      },
    });
    this.#index.addAll([...tools].map(document));
  }

  /** The best matches for `query` among the tools `visible` admits, best first, at most `limit`. */
  search(query: string, visible: (name: string) => boolean, limit: number): SearchHit[] {
    const terms = searchTerms(query);
    if (terms.length === 0) return [];
    const hits = this.#index.search(terms.join(' '), { filter: (result) => visible(result.id as string) });
    return hits.slice(0, limit).map((hit) => ({ name: hit.id as string, score: Math.round(hit.score * 1000) / 1000 }));
  }
}

/** The most words of a query searched for, and the longest word: a tool's words are short, and fuzzy matching a long one is costly. */
export const MAX_QUERY_TERMS = 12;
export const MAX_TERM_CHARS = 32;

/**
 * The words of `query` a search looks for: each once (in any letter case), none longer than
 * `MAX_TERM_CHARS`, at most `MAX_QUERY_TERMS` of them, so a caller's query costs a bounded search.
 */
export function searchTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const word of words(query)) {
    if (word.length > MAX_TERM_CHARS) continue;
    seen.add(word.toLowerCase());
    if (seen.size === MAX_QUERY_TERMS) break;
  }
  return [...seen];
}

function document(tool: CompiledTool) {
  const input = tool.descriptor.inputSchema as { properties?: Record<string, { description?: string }> };
  const properties = Object.entries(input.properties ?? {});
  return {
    id: tool.name,
    name: tool.name,
    title: tool.descriptor.title ?? '',
    description: tool.descriptor.description ?? '',
    args: properties.map(([name, schema]) => `${name} ${schema.description ?? ''}`).join(' '),
    group: `${tool.toolset.name} ${tool.toolset.description ?? ''}`,
  };
}

/** Splits on anything not a letter or digit, and between the words of camelCase and snake_case names. */
function words(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Lower case, stop words out, and a light stemmer so `issues`, `issue` and `listing`, `list` meet.
 * Written here rather than taken from a Porter stemmer package: the maintained ones are ES modules
 * only, and tool names need only plural and tense endings folded.
 */
function term(word: string): string | null {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  return stem(SAME_WORD[lower] ?? lower);
}

/** A query word as the index spells it, and the operation verb it also means. */
function queryTerms(word: string): string | string[] | null {
  const indexed = term(word);
  const verb = ALSO_MEANS[word.toLowerCase()];
  return indexed && verb ? [indexed, stem(verb)] : indexed;
}

function stem(word: string): string {
  if (word.length <= 3) return word;
  const base = suffixless(word);
  // `create`, `created`, `creating` all end as `creat`.
  return base.length > 4 && base.endsWith('e') ? base.slice(0, -1) : base;
}

function suffixless(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4 && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.endsWith('es') && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}
