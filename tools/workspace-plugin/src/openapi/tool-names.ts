import { createHash } from 'node:crypto';

/** The longest tool name generated: well inside MCP's 128, and what most clients display whole. */
export const MAX_TOOL_NAME = 64;

/**
 * An operation's tool name: its operationId in snake_case over `[a-z0-9_]` (`getPetById` →
 * `get_pet_by_id`, `repos/get-content` → `repos_get_content`), or method and path without one
 * (`GET /pet/{petId}` → `get_pet_pet_id`).
 */
export function baseToolName(operationId: string | undefined, method: string, path: string, prefix?: string): string {
  const fromId = operationId?.trim() ? snakeCase(operationId) : '';
  // Without an operationId, the method and the path's words; the root path is `get_root`, never a bare `get`.
  const name = fromId || `${method}_${snakeCase(path) || 'root'}`;
  return prefix?.trim() ? `${snakeCase(prefix)}_${name}` : name;
}

function snakeCase(source: string): string {
  return source
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * A name within 64 characters that still reads: words are dropped from the middle out, keeping the
 * first (the verb or the prefix) and the last (the thing acted on), before any hash is used
 * (`list_namespaced_horizontal_pod_autoscaler_...` keeps its ends).
 */
export function shortenName(name: string): string {
  const words = name.split('_');
  while (words.join('_').length > MAX_TOOL_NAME && words.length > 2) words.splice(Math.floor((words.length - 1) / 2), 1);
  return words.join('_');
}

/**
 * Final names for a list of operations, in order: a name over 64 characters loses words from its
 * middle, and only if that is not enough is it cut and given a stable 8-character hash of its full
 * form; a name already taken gets the hash of its operation's method and path. The same document
 * always gives the same names.
 */
export function assignToolNames(operations: readonly { base: string; method: string; path: string }[]): string[] {
  const taken = new Set<string>();
  return operations.map(({ base: full, method, path }) => {
    const base = shortenName(full);
    let name = base.length > MAX_TOOL_NAME ? withHash(base, full) : base;
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
