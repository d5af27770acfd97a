import { createHash } from 'node:crypto';

/** The longest tool name generated: well inside MCP's 128, and what most clients display whole. */
export const MAX_TOOL_NAME = 64;

/**
 * An operation's tool name: its operationId in snake_case over `[a-z0-9_]` (`getPetById` →
 * `get_pet_by_id`, `repos/get-content` → `repos_get_content`), or method and path without one
 * (`GET /pet/{petId}` → `get_pet_pet_id`).
 */
export function baseToolName(operationId: string | undefined, method: string, path: string): string {
  const source = operationId?.trim() ? operationId : `${method} ${path}`;
  const snake = source
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return snake || 'operation';
}

/**
 * Final names for a list of operations, in order: a name over 64 characters is cut and gets a
 * stable 8-character hash of its full form; a name already taken gets the hash of its operation's
 * method and path. The same document always gives the same names.
 */
export function assignToolNames(operations: readonly { base: string; method: string; path: string }[]): string[] {
  const taken = new Set<string>();
  return operations.map(({ base, method, path }) => {
    let name = base.length > MAX_TOOL_NAME ? withHash(base, base) : base;
    if (taken.has(name)) name = withHash(base, `${method.toUpperCase()} ${path}`);
    for (let n = 2; taken.has(name); n++) name = withHash(base, `${method.toUpperCase()} ${path} ${n}`);
    taken.add(name);
    return name;
  });
}

function withHash(name: string, seed: string): string {
  const hash = createHash('sha256').update(seed).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1).replace(/_+$/, '')}_${hash}`;
}
