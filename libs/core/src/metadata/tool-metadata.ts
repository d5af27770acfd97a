import type { ClassType } from '../types/class-type';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An icon a client may show for a tool (MCP's `Icon`): an https URL or a `data:` URI, with its type, sizes and theme. */
export interface ToolIcon {
  src: string;
  mimeType?: string;
  /** `WxH` (`48x48`) or `any` (a scalable image). */
  sizes?: string[];
  /** The background the icon is drawn for. */
  theme?: 'light' | 'dark';
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
  icons?: unknown;
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
