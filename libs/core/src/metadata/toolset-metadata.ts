import type { ClassType } from '../types/class-type';
export interface ToolsetOptions {
  /** Defaults to the class name in kebab-case without a `Toolset` suffix (`HelloToolset` → `hello`). */
  name?: string;
  description?: string;
  /** HTTP headers this toolset reads through `RequestContext.credential(name)`; lower-case names. */
  credentialHeaders?: readonly string[];
}

export interface ToolsetMetadata {
  target: ClassType;
  options: ToolsetOptions;
  /** Applied as a TC39 standard decorator: nothing about the class can be reflected. */
  standardDecorators?: boolean;
}
