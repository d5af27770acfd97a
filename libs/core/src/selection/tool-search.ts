import MiniSearch from 'minisearch';
import type { CompiledTool } from '../compiled/tool-catalog';
import { firstSentence, namedWords, searchTerms, term, words } from './search-text';

/** One ranked match. */
export interface SearchHit {
  name: string;
  score: number;
}

/**
 * How much a match in each part of a tool counts. What a tool is (its name, title, keywords and
 * first sentence) outweighs the rest of its description, and argument text counts least: small
 * words in argument descriptions ("up", "email") used to outrank the tool a query named.
 */
const BOOST = { name: 3, keywords: 1.5, title: 2, summary: 2, group: 1.2, description: 0.7, args: 0.3 } as const;

/**
 * BM25 ranking (minisearch's BM25+) over every tool of a catalog: its name split into words, its
 * title, the first sentence of its description and the rest, the `keywords` its author gave
 * (`@Tool({ keywords })`; the OpenAPI generator derives them), argument names and descriptions,
 * and its toolset's name and description. No catalog's vocabulary is built in: index and query
 * share one normalisation (search-text.ts). Built once, on the first search; a search is
 * filtered to what the caller may see.
 */
export class ToolSearch {
  readonly #index: MiniSearch<{ id: string }>;
  /** The words of this catalog's tool names: kept even where they are stop words elsewhere. */
  readonly #named: ReadonlySet<string>;

  constructor(tools: Iterable<CompiledTool>) {
    const all = [...tools];
    const named = (this.#named = namedWords(all.map((tool) => tool.name)));
    this.#index = new MiniSearch({
      fields: Object.keys(BOOST),
      storeFields: [],
      tokenize: words,
      processTerm: (word) => term(word, named),
      searchOptions: {
        boost: BOOST,
        prefix: (word) => word.length >= 4,
        fuzzy: (word) => (word.length >= 6 ? 0.15 : false),
        combineWith: 'OR',
        // The query arrives as searchTerms() made it: already split, stemmed and capped.
        tokenize: (text) => text.split(' '),
        processTerm: (word) => word,
      },
    });
    this.#index.addAll(all.map(document));
  }

  /** The best matches for `query` among the tools `visible` admits, best first, at most `limit`. */
  search(query: string, visible: (name: string) => boolean, limit: number): SearchHit[] {
    const terms = searchTerms(query, this.#named);
    if (terms.length === 0) return [];
    const hits = this.#index.search(terms.join(' '), { filter: (result) => visible(result.id as string) });
    return hits.slice(0, limit).map((hit) => ({ name: hit.id as string, score: Math.round(hit.score * 1000) / 1000 }));
  }
}

function document(tool: CompiledTool) {
  const input = tool.descriptor.inputSchema as { properties?: Record<string, { description?: string }> };
  const properties = Object.entries(input.properties ?? {});
  const description = tool.descriptor.description ?? '';
  const summary = firstSentence(description, Infinity);
  return {
    id: tool.name,
    name: tool.name,
    title: tool.descriptor.title ?? '',
    summary,
    description: description.replace(/\s+/g, ' ').trim().slice(summary.length),
    keywords: tool.keywords.join(' '),
    args: properties.map(([name, schema]) => `${name} ${schema.description ?? ''}`).join(' '),
    group: `${tool.toolset.name} ${tool.toolset.description ?? ''}`,
  };
}
