/**
 * The one normalisation of text that tool search applies to both sides, the index and the query:
 * possessives off, words split at case changes and punctuation, the `stopword` package's English
 * stop words out, and every word reduced by the Porter2 (Snowball English) stemmer, so `meeting`
 * and `meetings`, `user's` and `users`, `create` and `created` meet. Both are small, MIT-licensed
 * CommonJS packages with no dependencies; a hand-written stemmer had folded `meetings` and
 * `meeting` to different stems.
 */
const porter2 = require('wink-porter2-stemmer') as (word: string) => string;
const STOP_WORDS: ReadonlySet<string> = new Set((require('stopword') as { eng: readonly string[] }).eng.filter((word) => word !== 'get'));

/** The most words of a query searched for, and the longest word: a tool's words are short, and fuzzy matching a long one is costly. */
export const MAX_QUERY_TERMS = 12;
export const MAX_TERM_CHARS = 32;

/** Splits on anything not a letter or digit, between the words of camelCase names, and drops possessive endings. */
export function words(text: string): string[] {
  return text
    .replace(/['’]s\b/gi, '')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A word as the index spells it: lower case and stemmed; null for a single letter or a stop word,
 * unless the catalog names a tool with it (`named`: `like` is a stop word, but not beside `like_video`).
 */
export function term(word: string, named?: ReadonlySet<string>): string | null {
  const lower = word.toLowerCase();
  if (lower.length < 2 || (STOP_WORDS.has(lower) && !named?.has(lower))) return null;
  return porter2(lower);
}

/** The words of a catalog's tool names, lower case: never stop words in that catalog's search. */
export function namedWords(names: Iterable<string>): ReadonlySet<string> {
  const found = new Set<string>();
  for (const name of names) for (const word of words(name)) found.add(word.toLowerCase());
  return found;
}

/**
 * The words of `query` a search looks for, as the index spells them: each once, none longer than
 * `MAX_TERM_CHARS`, at most `MAX_QUERY_TERMS` of them, so a caller's query costs a bounded search.
 */
export function searchTerms(query: string, named?: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  for (const word of words(query)) {
    if (word.length > MAX_TERM_CHARS) continue;
    const indexed = term(word, named);
    if (!indexed) continue;
    seen.add(indexed);
    if (seen.size === MAX_QUERY_TERMS) break;
  }
  return [...seen];
}

/** The first sentence of a description, on one line, at most `max` characters (cut at a word, with `…`). */
export function firstSentence(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const end = line.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? line.slice(0, end + 1) : line;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}
