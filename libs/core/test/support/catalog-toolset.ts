import { Contains, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Field, Result, Tool, ToolError, ToolResult, Toolset } from '../../src';

/** A small catalog used by the wire tests: every arm and failure a tool can produce. */
export class Item {
  @Field()
  sku!: string;

  @Field()
  @IsOptional()
  note?: string;

  @Field()
  @IsOptional()
  addedAt?: Date;
}

@Result({ description: 'Items that matched.' })
export class FindResult extends ToolResult {
  @Field(() => [Item])
  items!: Item[];

  @Field()
  @IsOptional()
  nextCursor?: string;
}

export class FindArgs {
  @Field({ description: 'What to look for; "missing" finds nothing.' })
  query!: string;

  @Field()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  limit?: number = 2;

  @Field()
  @IsOptional()
  since?: Date;
}

export class TagArgs {
  @Field()
  @Contains('#')
  tag!: string;
}

export class EchoResult extends ToolResult {
  @Field()
  received!: string;
}

@Toolset({ name: 'catalog', description: 'A test catalog.' })
export class CatalogToolset {
  @Tool({ description: 'Find items.', args: FindArgs, returns: [FindResult, ToolError] })
  find(args: FindArgs): FindResult | ToolError {
    if (args.query === 'missing') return { error: 'not_found', detail: `Nothing matches "${args.query}"; try a shorter query.` };
    if (args.query === 'missing-instance') return new ToolError('not_found', 'Nothing matches.');
    const items = Array.from({ length: args.limit ?? 2 }, (_, i) => ({ sku: `${args.query}-${i}`, internalCost: 12 }));
    return { message: `Found ${items.length} items.`, items, debug: { sql: 'SELECT *' } } as FindResult;
  }

  @Tool({ description: 'Return whatever the test set.', returns: [FindResult, ToolError] })
  raw(): FindResult | ToolError {
    return { message: 'ok', items: [] };
  }

  @Tool({ description: 'Always throws.', returns: EchoResult })
  explode(): EchoResult {
    throw new Error('Upstream inventory service is unavailable.');
  }

  @Tool({ description: 'Echo a tag.', args: TagArgs, returns: EchoResult })
  tag(args: TagArgs): EchoResult {
    return { message: `Tagged ${args.tag}.`, received: args.tag };
  }
}

/** What a test controls in its own catalog: what `raw` returns, and a look at `find`'s arguments. */
export interface CatalogHooks {
  rawReturn?: unknown;
  onFind?: (args: FindArgs) => void;
}

/** A catalog of its own for one test: the same tools, with `raw` and `find` under the test's control. */
export function catalogWith(hooks: CatalogHooks): typeof CatalogToolset {
  @Toolset({ name: 'catalog', description: 'A test catalog.' })
  class HookedCatalogToolset extends CatalogToolset {
    override raw(): FindResult | ToolError {
      return hooks.rawReturn as FindResult;
    }

    override find(args: FindArgs): FindResult | ToolError {
      hooks.onFind?.(args);
      return super.find(args);
    }
  }
  return HookedCatalogToolset;
}
