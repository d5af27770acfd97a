import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, Max, MaxLength, Min } from 'class-validator';
import { buildServer, curate, Field, Tool, ToolResult, Toolset } from '@toolsets/core';
import { generateToolset } from '../../src/openapi/generate-toolset';

/**
 * An argument is curated in two places, an app's `curate()` (the startup gate) and an OpenAPI
 * library's `openapi.config.json` (the generator), over the same rule table. The same entries, for
 * the same arguments declared both ways, must be accepted or refused alike.
 */

class ListItemsArgs {
  @Field({ description: 'Words to look for.' })
  @MaxLength(100)
  @IsOptional()
  q?: string;

  @Field({ description: 'How many.' })
  @IsInt()
  @Min(1)
  @Max(100)
  @IsOptional()
  limit?: number;

  @Field({ description: 'Which kind.' })
  @IsIn(['a', 'b', 'c'])
  @IsOptional()
  kind?: 'a' | 'b' | 'c';

  @Field({ description: 'The order.' })
  @IsOptional()
  sort?: string;
}

class ListItemsResult extends ToolResult {}

@Toolset({ name: 'items', description: 'Items.' })
class ItemsToolset {
  @Tool({ description: 'List items.', args: ListItemsArgs, returns: ListItemsResult })
  listItems(): ListItemsResult {
    return { message: 'listed' };
  }
}

const document = {
  openapi: '3.0.3',
  info: { title: 'Items', version: '1' },
  servers: [{ url: 'http://127.0.0.1:1' }],
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        summary: 'List items.',
        parameters: [
          { name: 'q', in: 'query', description: 'Words to look for.', schema: { type: 'string', maxLength: 100 } },
          { name: 'limit', in: 'query', description: 'How many.', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'kind', in: 'query', description: 'Which kind.', schema: { type: 'string', enum: ['a', 'b', 'c'] } },
          { name: 'sort', in: 'query', description: 'The order.', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'The items.', content: { 'application/json': { schema: { type: 'object', properties: { count: { type: 'integer' } } } } } } },
      },
    },
  },
};

/** Written before either side was run: what each entry must get, by the rules in docs/openapi.md and docs/curation.md. */
const CASES: [string, Record<string, unknown>, 'accepted' | 'refused'][] = [
  ['a narrower maxLength', { q: { maxLength: 50 } }, 'accepted'],
  ['a maxLength that is not a whole number', { q: { maxLength: 2.5 } }, 'refused'],
  ['a negative minLength', { q: { minLength: -1 } }, 'refused'],
  ['a maxLength that widens', { q: { maxLength: 150 } }, 'refused'],
  ['a rename to an identifier', { q: { name: 'query' } }, 'accepted'],
  ['a rename with a dash', { q: { name: 'page-size' } }, 'refused'],
  ['a rename with a dollar sign', { q: { name: '$top' } }, 'refused'],
  ['a rename onto another argument', { q: { name: 'limit' } }, 'refused'],
  ['two renames onto one name', { q: { name: 'text' }, sort: { name: 'text' } }, 'refused'],
  ['an empty description', { q: { description: ' ' } }, 'refused'],
  ['a narrower maximum', { limit: { maximum: 50 } }, 'accepted'],
  ['a minimum above the maximum', { limit: { minimum: 5, maximum: 4 } }, 'refused'],
  ['a minimum above the own maximum', { limit: { minimum: 101 } }, 'refused'],
  ['a pattern on a number', { limit: { pattern: '^1' } }, 'refused'],
  ['a length bound on a list of values', { kind: { maxLength: 1 } }, 'refused'],
  ['a narrower enum', { kind: { enum: ['a', 'b'] } }, 'accepted'],
  ['an empty enum', { kind: { enum: [] } }, 'refused'],
  ['an enum value the argument refuses', { kind: { enum: ['a', 'z'] } }, 'refused'],
  ['an empty list of examples', { sort: { examples: [] } }, 'refused'],
  ['a pattern that does not compile', { sort: { pattern: '(' } }, 'refused'],
  ['a pattern', { sort: { pattern: '^[a-z]+$' } }, 'accepted'],
  ['an example the pattern refuses', { sort: { pattern: '^[a-z]+$', examples: ['A1'] } }, 'refused'],
  ['a hidden value', { q: { value: 'x' } }, 'accepted'],
  ['a hidden value past the bound', { limit: { value: 500 } }, 'refused'],
  ['a default', { limit: { default: 10 } }, 'accepted'],
  ['a default past the narrowed bound', { limit: { maximum: 50, default: 60 } }, 'refused'],
  ['an entry that is not an object', { q: 'query' }, 'refused'],
  ['an optional argument omitted', { sort: { omit: true } }, 'accepted'],
  ['omit beside a default', { sort: { omit: true, default: 'x' } }, 'refused'],
  ['omit that is not true', { sort: { omit: 1 } }, 'refused'],
];

async function byGenerator(entries: Record<string, unknown>): Promise<string> {
  try {
    await generateToolset('items', document, { tools: { listItems: { arguments: entries as never } } });
    return 'accepted';
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

function byGate(entries: Record<string, unknown>): string {
  try {
    buildServer({ name: 'items', version: '1.0.0', toolsets: [curate(ItemsToolset, { tools: { listItems: { arguments: entries as never } } })] });
    return 'accepted';
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

describe('argument curation, one rule table for curate() and openapi.config.json', () => {
  it.each(CASES)('%s: both %s', async (_what, entries, expected) => {
    const [generator, gate] = [await byGenerator(entries), byGate(entries)];
    // Each outcome with its message, so a disagreement shows both sides' reasons.
    expect({ generator: generator.split(':')[0], gate: gate.split(':')[0] }).toEqual({ generator: expected, gate: expected });
  });
});
