import { Field, Result, TaskContext, Tool, ToolError, ToolResult, Toolset } from '@toolsets/core';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { pause } from './fixtures';
import { ColorForm, NameForm } from './forms';

@Result({ description: 'What the task fixture did, in words.' })
export class TaskFixtureResult extends ToolResult {}

export class GreetArguments {
  @Field({ description: 'Who to greet' })
  name!: string;
}

export class RegionArguments {
  @Field({ description: 'The region to look in; mirrored into the Mcp-Param-Region header', header: 'Region' })
  region!: string;

  @Field({ description: 'What to look for' })
  query!: string;
}

export class ComputeArguments {
  @Field(() => Number, { description: 'How long to work, in seconds (0 for at once)' })
  @IsInt()
  @Min(0)
  @Max(600)
  seconds!: number;

  @Field({ description: 'A label the result repeats' })
  @IsOptional()
  label?: string;
}

export class DeleteArguments {
  @Field({ description: 'The file to delete' })
  filename!: string;
}

/** The question `confirm_delete` asks before it deletes anything. */
export class ConfirmForm {
  @Field(() => Boolean, { description: 'Delete the file?' })
  confirm!: boolean;
}

/**
 * The fixtures of the conformance suite's tasks-extension scenarios (`tasks-*`), as task tools are
 * written in any toolset: `@Tool({ task })`, the TaskContext for the signal and the questions.
 */
@Toolset({ name: 'conformance-tasks', description: 'The tasks-extension fixtures of the official conformance suite.' })
export class ConformanceTasksToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ name: 'greet', description: 'Greets someone at once (never a task).', args: GreetArguments, returns: TaskFixtureResult, text: 'message' })
  greet({ name }: GreetArguments): TaskFixtureResult {
    return { message: `Hello, ${name}!` };
  }

  @Tool({ name: 'find_in_region', description: 'Looks something up in a region that gateways route by (its Mcp-Param-Region header).', args: RegionArguments, returns: TaskFixtureResult, text: 'message' })
  findInRegion({ region, query }: RegionArguments): TaskFixtureResult {
    return { message: `Looked for ${query} in ${region}.` };
  }

  @Tool({ name: 'slow_compute', description: 'Works for `seconds` seconds, then answers; stops when cancelled.', args: ComputeArguments, returns: [TaskFixtureResult, ToolError], task: 'optional' })
  async slowCompute({ seconds, label }: ComputeArguments): Promise<TaskFixtureResult | ToolError> {
    await pause(seconds * 1000, this.task.signal);
    if (this.task.signal.aborted) return new ToolError('cancelled', `Stopped before ${seconds} s of work${label ? ` on ${label}` : ''}.`);
    return { message: `Computed for ${seconds} s${label ? `: ${label}` : ''}.` };
  }

  @Tool({ name: 'failing_job', description: 'Always fails with a tool error, after about a second (only as a task).', returns: [TaskFixtureResult, ToolError], task: 'required' })
  async failingJob(): Promise<TaskFixtureResult | ToolError> {
    await pause(1000, this.task.signal);
    return new ToolError('job_failed', 'The job failed, as this fixture always does.');
  }

  @Tool({ name: 'protocol_error_job', description: 'Breaks with an unexpected error: the task ends failed.', returns: TaskFixtureResult, task: 'optional' })
  async protocolErrorJob(): Promise<TaskFixtureResult> {
    await pause(100, this.task.signal);
    throw new Error('protocol_error_job broke, as this fixture always does.');
  }

  @Tool({ name: 'confirm_delete', description: 'Asks the user to confirm, then deletes the file (nothing is deleted).', args: DeleteArguments, returns: [TaskFixtureResult, ToolError], elicits: [ConfirmForm], task: 'optional' })
  async confirmDelete({ filename }: DeleteArguments): Promise<TaskFixtureResult | ToolError> {
    const answer = await this.task.requireInput(ConfirmForm, `Delete ${filename}?`);
    if (answer.action !== 'accept' || !answer.content.confirm) return { message: `Kept ${filename}.` };
    return { message: `Deleted ${filename}.` };
  }

  @Tool({
    name: 'test_tool_with_task',
    description: "Asks the user's name first, then becomes a task that greets them.",
    returns: TaskFixtureResult,
    elicits: [NameForm],
    task: { support: 'required', askFirst: true },
  })
  async toolWithTask(): Promise<TaskFixtureResult> {
    const name = await this.task.requireInput(NameForm, 'What is your name?', { key: 'user_name' });
    await this.task.start();
    return { message: `Hello from the task, ${name.action === 'accept' ? name.content.name : 'stranger'}!` };
  }

  @Tool({ name: 'multi_input', description: 'Asks two questions at once, and answers when both are answered.', returns: TaskFixtureResult, elicits: [NameForm, ColorForm], task: 'optional' })
  async multiInput(): Promise<TaskFixtureResult> {
    const [name, color] = await Promise.all([this.task.requireInput(NameForm, 'What is your name?'), this.task.requireInput(ColorForm, 'What is your favourite colour?')]);
    const who = name.action === 'accept' ? name.content.name : 'someone';
    const likes = color.action === 'accept' ? color.content.color : 'no colour in particular';
    return { message: `${who} likes ${likes}.` };
  }
}
