import type { ClassType } from '@toolsets/core';

/** One call of a generated tool: which upstream tool, with what, and what its answer is. */
export interface UpstreamToolCall {
  /** The tool's name on the upstream (a curated or prefixed tool keeps calling it by this name). */
  tool: string;
  args?: object;
  /**
   * `structured`: the upstream declares an output schema; its `structuredContent` becomes `data`.
   * `content`: it declares none; its text becomes `message`, other blocks are attached as they came.
   */
  output: 'structured' | 'content';
  /** The tool's result class, when its answers are lenient (`mcp.config.json` `lenient`). */
  lenient?: ClassType;
  /**
   * The upstream runs the tool as a task (its `execution.taskSupport`): when the caller's call is a
   * task, so is the upstream's, followed to its end (see `relayUpstreamTask`).
   */
  task?: 'optional' | 'required';
}

/** What a generated tool returns on an answer: its result class's shape. */
export interface UpstreamResult {
  message: string;
  /** The upstream's `structuredContent` (tools that declare an output schema). */
  data?: unknown;
  /** A lenient tool's answer that does not fit the upstream's own output schema, in place of `data`. */
  unchecked?: unknown;
  /** What in a lenient tool's answer did not fit. */
  note?: string;
}
