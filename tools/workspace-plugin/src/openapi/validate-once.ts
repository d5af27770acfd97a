import { createHash } from 'node:crypto';
import { validate } from '@readme/openapi-parser';
import { LRUCache } from 'lru-cache';

type Validation = Awaited<ReturnType<typeof validate>>;

/**
 * `@readme/openapi-parser`'s `validate`, once per document content in a process. The parser
 * compiles the OpenAPI JSON Schema anew on every call (a new Ajv each time: 100–300 ms of CPU
 * before it reads the document), and one process often validates one document more than once: a
 * refresh reads the document it compares against, `openapi-measure` generates as generated and as
 * curated, a test suite generates from the same fixture in each test. The outcome depends on the
 * document alone, so it is remembered by a hash of its JSON (a few of the latest documents).
 */
const outcomes = new LRUCache<string, Validation>({ max: 32 });

export async function validateOnce(document: unknown): Promise<Validation> {
  const key = createHash('sha256').update(JSON.stringify(document)).digest('base64');
  const known = outcomes.get(key);
  if (known) return known;
  // The parser mutates what it is given: hand it a copy.
  const outcome = await validate(structuredClone(document) as never);
  outcomes.set(key, outcome);
  return outcome;
}
