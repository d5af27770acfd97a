// Compile-time contract of @Tool, checked by `nx run core:typecheck` (tsc), never executed.
// Each @ts-expect-error must stay an error: if the typing loosens, tsc reports it as unused.
import { Field, isToolError, Tool, ToolError, ToolResult, Toolset } from '../../src';

class SearchArgs {
  @Field()
  query!: string;
}

class SearchResult extends ToolResult {
  @Field()
  count!: number;
}

class OtherResult extends ToolResult {
  @Field()
  other!: string;
}

@Toolset()
export class AcceptedShapes {
  @Tool({ description: 'A class instance.', returns: SearchResult })
  instance(): SearchResult {
    const result = new SearchResult();
    result.message = 'one';
    result.count = 1;
    return result;
  }

  @Tool({ description: 'A plain literal of the class shape.', args: SearchArgs, returns: SearchResult })
  literal(args: SearchArgs) {
    return { message: args.query, count: 1 };
  }

  @Tool({ description: 'A promise of it.', returns: SearchResult })
  async promised(): Promise<SearchResult> {
    return { message: 'later', count: 2 };
  }

  @Tool({ description: 'Either arm.', args: SearchArgs, returns: [SearchResult, ToolError] })
  async union(args: SearchArgs): Promise<SearchResult | ToolError> {
    if (!args.query) return { error: 'invalid_input', detail: 'Give a query.' };
    return new ToolError('not_found', 'none');
  }
}

@Toolset()
export class RejectedShapes {
  // @ts-expect-error a result missing a declared key is rejected
  @Tool({ description: 'x', returns: SearchResult })
  missingKey() {
    return { message: 'no count' };
  }

  // @ts-expect-error another result class is not the declared one
  @Tool({ description: 'x', returns: SearchResult })
  wrongClass(): OtherResult {
    return { message: 'x', other: 'y' };
  }

  // @ts-expect-error a ToolError is rejected unless the union declares it
  @Tool({ description: 'x', returns: SearchResult })
  undeclaredError(): SearchResult | ToolError {
    return new ToolError('e', 'd');
  }

  // @ts-expect-error a promise of the wrong shape is rejected too
  @Tool({ description: 'x', returns: [SearchResult, ToolError] })
  async wrongPromise(): Promise<string> {
    return 'text';
  }

  // @ts-expect-error the method's argument must be the declared args class
  @Tool({ description: 'x', args: SearchArgs, returns: SearchResult })
  wrongArgs(args: { id: number }): SearchResult {
    return { message: String(args.id), count: 0 };
  }

  @Tool({
    description: 'x',
    // @ts-expect-error returns must extend ToolResult (a class without message is refused)
    returns: SearchArgs,
  })
  notAResult(): SearchResult {
    return { message: '', count: 0 };
  }
}

// isToolError narrows a union in both branches.
export function narrow(value: SearchResult | ToolError): number | string {
  if (isToolError(value)) {
    const kind: string = value.error;
    return kind;
  }
  const count: number = value.count;
  return count;
}
