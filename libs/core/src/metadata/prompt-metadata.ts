import type { ClassType } from '../types/class-type';

/** The untyped view of `@Prompt` options that the gate reads; the decorator's signature is stricter. */
export interface PromptOptionsRecord {
  /** Defaults to the method name in snake_case. */
  name?: string;
  title?: string;
  description?: string;
  /** The arguments DTO: string fields (prompt arguments are strings on the wire), closed, validated. */
  args?: ClassType;
  elicits?: readonly unknown[];
}

export interface PromptMetadata {
  target: ClassType;
  methodName: string;
  options: PromptOptionsRecord;
}
