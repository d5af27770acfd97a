// Compile-time contract of curate(), checked by `nx run core:typecheck` (tsc), never executed.
// Each @ts-expect-error must stay an error: if the typing loosens, tsc reports it as unused.
import { curate, Field, Tool, ToolResult, Toolset } from '../../src';

class ListArgs {
  @Field()
  owner!: string;

  @Field()
  perPage?: number;
}

class Listed extends ToolResult {
  @Field()
  count!: number;
}

@Toolset()
export class Issues {
  @Tool({ description: 'List.', args: ListArgs, returns: Listed })
  listIssues(args: ListArgs): Listed {
    return { message: args.owner, count: 0 };
  }

  @Tool({ description: 'Count.', returns: Listed })
  countIssues(): Listed {
    return { message: 'none', count: 0 };
  }
}

export const accepted = curate(Issues, {
  prefix: 'gh_',
  hide: ['countIssues'],
  tools: { listIssues: { name: 'issues', arguments: { owner: { name: 'org' }, perPage: { value: 100 } } } },
});

// @ts-expect-error a misspelt tool method in hide
export const misspeltHidden = curate(Issues, { hide: ['listIsues'] });

// @ts-expect-error a misspelt tool method in tools
export const misspeltTool = curate(Issues, { tools: { listIsues: { name: 'x' } } });

// @ts-expect-error a misspelt argument
export const misspeltArgument = curate(Issues, { tools: { listIssues: { arguments: { ownr: { name: 'org' } } } } });

// @ts-expect-error a constant of the wrong type
export const wrongConstant = curate(Issues, { tools: { listIssues: { arguments: { perPage: { value: 'all' } } } } });

// @ts-expect-error arguments on a tool that takes none
export const noArguments = curate(Issues, { tools: { countIssues: { arguments: { owner: { value: 'a' } } } } });
