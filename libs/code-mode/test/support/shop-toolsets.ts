import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Field, RateLimit, RequestContext, Result, Tool, ToolError, ToolResult, Toolset, UseInterceptors } from '@toolsets/core';

/** Fixtures for code mode served by a real server: a small issue tracker and an inventory, each with what the rules cover. */

class ListArgs {
  @Field({ description: 'Which issues.', examples: ['open'] })
  @IsIn(['open', 'closed'])
  state!: string;

  @Field({ description: 'At most this many.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

class Issue {
  @Field({ description: 'Its number.' })
  number!: number;

  @Field()
  title!: string;

  @Field(() => [String])
  labels!: string[];
}

@Result({ description: 'Issues, newest first.' })
export class IssueList extends ToolResult {
  @Field(() => [Issue])
  issues!: Issue[];
}

class NumberArgs {
  @Field()
  @IsInt()
  number!: number;
}

class LabelArgs extends NumberArgs {
  @Field()
  label!: string;
}

@Result({ description: 'One issue.' })
class OneIssue extends ToolResult {
  @Field(() => Issue)
  issue!: Issue;
}

@Result({ description: 'A summary the client model wrote.' })
class Summary extends ToolResult {
  @Field()
  text!: string;
}

/** What closing an issue asks the user first. */
class CloseForm {
  @Field({ description: 'Close it?' })
  confirm!: boolean;
}

export function freshIssues(): Issue[] {
  return [
    { number: 3, title: 'Crash on save', labels: [] },
    { number: 2, title: 'Typo in README', labels: ['docs'] },
    { number: 1, title: 'Slow start', labels: [] },
  ];
}
export const tracker = { issues: freshIssues(), calls: 0 };

@Toolset({ name: 'tracker', description: 'Issues of the project: list, read and label them.' })
export class TrackerToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'List issues by state, newest first.', args: ListArgs, returns: IssueList, annotations: { readOnlyHint: true } })
  list_issues({ state, limit }: ListArgs): IssueList {
    tracker.calls++;
    const issues = state === 'open' ? tracker.issues.slice(0, limit ?? 50) : [];
    return { message: `${issues.length} issues.`, issues };
  }

  @Tool({ description: 'Read one issue by number.', args: NumberArgs, returns: [OneIssue, ToolError], annotations: { readOnlyHint: true } })
  get_issue({ number }: NumberArgs): OneIssue | ToolError {
    tracker.calls++;
    const issue = tracker.issues.find((candidate) => candidate.number === number);
    return issue ? { message: `#${number}.`, issue } : new ToolError('not_found', `No issue ${number}.`);
  }

  @UseInterceptors(RateLimit({ capacity: 3, refillPerSecond: 0.001, name: 'labels' }))
  @Tool({ description: 'Add a label to an issue.', args: LabelArgs, returns: [OneIssue, ToolError] })
  add_label({ number, label }: LabelArgs): OneIssue | ToolError {
    tracker.calls++;
    const issue = tracker.issues.find((candidate) => candidate.number === number);
    if (!issue) return new ToolError('not_found', `No issue ${number}.`);
    issue.labels.push(label);
    return { message: `Labelled #${number}.`, issue };
  }

  @Tool({ description: "Summarise an issue with the client's model (sampling).", args: NumberArgs, returns: Summary, annotations: { readOnlyHint: true } })
  async summarise({ number }: NumberArgs): Promise<Summary> {
    const reply = await this.context.sample({ messages: [{ role: 'user', content: { type: 'text', text: `Summarise issue ${number}.` } }], maxTokens: 50 });
    return { message: 'Summarised.', text: reply.content.type === 'text' ? reply.content.text : '' };
  }

  @Tool({ description: 'Close an issue, after asking the user.', args: NumberArgs, returns: OneIssue, elicits: [CloseForm] })
  async close_issue({ number }: NumberArgs): Promise<OneIssue> {
    await this.context.elicit('Close it?', CloseForm);
    return { message: `Closed #${number}.`, issue: tracker.issues.find((issue) => issue.number === number)! };
  }

  @Tool({ description: 'Export every issue as a long-running task.', returns: IssueList, task: { support: 'optional' } })
  export_issues(): IssueList {
    return { message: 'Exported.', issues: tracker.issues };
  }
}
