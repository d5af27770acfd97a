import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error' with { 'resolution-mode': 'import' };
import type { SchemaNode } from '../types/schema-node';

/** What the call path needs of a compiled schema. */
export interface SchemaValidator {
  Check(value: unknown): boolean;
  Errors(value: unknown): TLocalizedValidationError[];
}

/**
 * A validator compiled on its first use, not at startup: most tools of a large catalog are never
 * called by a given process, and compiling thousands of schemas up front is most of a cold start.
 * What could make compiling fail (a `pattern` that is not a regular expression) is checked at
 * startup by the gate (`gate/pattern-check.ts`), so the first call cannot be the one to find it.
 */
export function lazyValidator(schema: SchemaNode | (() => SchemaNode)): SchemaValidator {
  let compiled: ReturnType<typeof Compile> | undefined;
  // A thunk defers emitting the schema too (a union arm's), not only compiling it.
  const validator = () => (compiled ??= Compile(typeof schema === 'function' ? schema() : schema));
  return {
    Check: (value) => validator().Check(value),
    Errors: (value) => [...validator().Errors(value)],
  };
}
