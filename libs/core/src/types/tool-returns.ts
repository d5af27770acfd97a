import type { ResultWithContent } from '../wire/tool-content';
import type { ToolError } from '../results/tool-error';
import type { ToolResult } from '../results/tool-result';
import type { ClassType } from './class-type';

/** `returns:` of `@Tool`: one result class, or the union of a result class and `ToolError`. */
export type ToolReturns = ClassType<ToolResult> | readonly [ClassType<ToolResult>, ClassType<ToolError>];

/** The typed value a tool returns for a given `returns:` (instances or structurally equal literals). */
export type ToolValue<R> = R extends readonly [infer Ok extends ClassType, infer Err extends ClassType]
  ? InstanceType<Ok> | InstanceType<Err>
  : R extends ClassType
    ? InstanceType<R>
    : never;

/** What a tool method may return: its typed value, alone or `withContent(value, ...blocks)`. */
export type ToolOutput<R> = ToolValue<R> | ResultWithContent<ToolValue<R>>;

/** The argument a tool method receives for a given `args:` class (an empty object without one). */
export type ToolArgs<A> = A extends ClassType<infer T> ? T : Record<string, never>;
