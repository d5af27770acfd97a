import type { ClassType } from '../types/class-type';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The untyped view of `@Tool` options that the builder reads; the decorator's signature is stricter. */
export interface ToolOptionsRecord {
  name?: string;
  title?: string;
  description?: string;
  args?: ClassType;
  inputSchema?: unknown;
  returns?: unknown;
  annotations?: ToolAnnotations;
  keywords?: unknown;
  origin?: unknown;
  elicits?: readonly unknown[];
  text?: unknown;
  task?: unknown;
  view?: unknown;
}

export interface ToolMetadata {
  target: ClassType;
  methodName: string;
  options: ToolOptionsRecord;
}
