import type { ToolError } from '../results/tool-error';
import type { ToolResult } from '../results/tool-result';
import type { ClassType } from './class-type';

/** `returns:` of `@Tool`: one result class, or the union of a result class and `ToolError`. */
export type ToolReturns = ClassType<ToolResult> | readonly [ClassType<ToolResult>, ClassType<ToolError>];

/** What a tool method may return for a given `returns:` (instances or structurally equal literals). */
export type ToolOutput<R> = R extends readonly [infer Ok extends ClassType, infer Err extends ClassType]
  ? InstanceType<Ok> | InstanceType<Err>
  : R extends ClassType
    ? InstanceType<R>
    : never;

/** The argument a tool method receives for a given `args:` class (an empty object without one). */
export type ToolArgs<A> = A extends ClassType<infer T> ? T : Record<string, never>;
