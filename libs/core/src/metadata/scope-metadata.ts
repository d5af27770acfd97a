import type { ClassType } from '../types/class-type';

/** `@RequireScopes(...)` on a toolset class (no `methodName`) or on one of its tools. */
export interface ScopeMetadata {
  target: ClassType;
  methodName?: string;
  scopes: readonly string[];
}
