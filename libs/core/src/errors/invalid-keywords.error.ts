import { describeEntry } from '../helpers/describe-value';
import { ContractViolation, type ViolationSite } from './contract-violation';

/** The most keywords one tool may give, and the longest: they are search words, not prose. */
export const MAX_KEYWORDS = 64;
export const MAX_KEYWORD_CHARS = 64;

export class InvalidKeywordsError extends ContractViolation {
  constructor(site: ViolationSite, problem: string) {
    super(
      site,
      `The tool's keywords ${problem}; discovery search indexes them as words.`,
      `set \`keywords:\` in @Tool to an array of at most ${MAX_KEYWORDS} short words or phrases (1–${MAX_KEYWORD_CHARS} characters each), like ['refund', 'money back'].`,
    );
  }

  /** What is wrong with `keywords`, or undefined when they are fine. */
  static problemWith(keywords: unknown): string | undefined {
    if (!Array.isArray(keywords)) return `are ${describeEntry(keywords)}, not an array`;
    if (keywords.length > MAX_KEYWORDS) return `are ${keywords.length}, more than ${MAX_KEYWORDS}`;
    const bad = keywords.findIndex((word) => typeof word !== 'string' || word.trim() === '' || word.length > MAX_KEYWORD_CHARS);
    return bad < 0 ? undefined : `have ${describeEntry(keywords[bad])} at [${bad}], not a word of 1–${MAX_KEYWORD_CHARS} characters`;
  }
}
