// Compile-time contract of @Tool, checked by `nx run core:typecheck` (tsc), never executed.
// Each @ts-expect-error must stay an error: if the typing loosens, tsc reports it as unused.
import { Field, image, isToolError, Prompt, Resource, ResourceTemplate, Tool, ToolError, ToolResult, Toolset, userMessage, withContent } from '../../src';

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

  @Tool({ description: 'A result with an image beside it.', returns: SearchResult })
  withImage() {
    return withContent({ message: 'one', count: 1 }, image(new Uint8Array([1]), 'image/png'));
  }

  @Tool({ description: 'A raw input schema: the method takes the plain object.', inputSchema: { type: 'object' }, returns: SearchResult })
  raw(args: Record<string, unknown>): SearchResult {
    return { message: String(args['query']), count: 0 };
  }

  @Prompt({ description: 'A prompt with typed arguments.', args: SearchArgs })
  prompt(args: SearchArgs) {
    return [userMessage(`Search for ${args.query}.`)];
  }

  @Resource({ uri: 'docs://readme', description: 'Text.' })
  readme() {
    return 'hello';
  }

  @ResourceTemplate({ uriTemplate: 'search://{query}', description: 'Bytes.', args: SearchArgs })
  async template(args: SearchArgs) {
    return new TextEncoder().encode(args.query);
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

  // @ts-expect-error withContent does not loosen the result's type
  @Tool({ description: 'x', returns: SearchResult })
  contentOfWrongShape() {
    return withContent({ message: 'no count' });
  }

  // @ts-expect-error a prompt returns messages or text, not a number
  @Prompt({ description: 'x' })
  badPrompt() {
    return 42;
  }

  // @ts-expect-error a resource returns text or bytes
  @Resource({ uri: 'docs://x', description: 'x' })
  badResource() {
    return { count: 1 };
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
