import { clip } from '../../helpers/client-text';

/** Bounds on one call's arguments, checked before schema validation so a huge call is refused cheaply. */
export interface ArgumentLimits {
  /** Array items in all the arguments together, and keys in any one object (default 10,000). */
  maxItems: number;
  /** Characters in any one string (default 100,000). */
  maxStringLength: number;
  /** Nesting of objects and arrays (default 32). */
  maxDepth: number;
}

export const DEFAULT_ARGUMENT_LIMITS: Readonly<ArgumentLimits> = Object.freeze({
  maxItems: 10_000,
  maxStringLength: 100_000,
  maxDepth: 32,
});

/** Keys that name an object's prototype machinery: never an argument, even where a schema is open. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first way `args` breaks the limits or carries a prototype key, as a sentence for the client,
 * or undefined. Walks the value once, without recursion, and stops at the first problem.
 */
export function checkArgumentLimits(args: unknown, limits: Readonly<ArgumentLimits>): string | undefined {
  if (isFlatWithinLimits(args, limits)) return undefined;
  let items = 0;
  // Paths are built only for the message: each entry points at its parent.
  const stack: Entry[] = [{ value: args, depth: 0 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (typeof value === 'string') {
      if (value.length > limits.maxStringLength) {
        return `${where(entry)} is ${value.length} characters long; this server accepts at most ${limits.maxStringLength} per string.`;
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limits.maxDepth) return `${where(entry)} nests deeper than ${limits.maxDepth} levels, the most this server accepts.`;
    if (Array.isArray(value)) {
      items += value.length;
      if (items > limits.maxItems) return `the arguments hold more than ${limits.maxItems} array items in all, the most this server accepts.`;
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, parent: entry, key: i });
      continue;
    }
    const problem = visitObject(entry, value, limits, stack);
    if (problem) return problem;
  }
  return undefined;
}

/** Checks one object's keys and queues its values; the first problem, or undefined. */
function visitObject(entry: Entry, value: object, limits: Readonly<ArgumentLimits>, stack: Entry[]): string | undefined {
  const { depth } = entry;
  // A parser that assigns keys (as the SDK's schema parse does) turns "__proto__" into the prototype.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return `'${clip(pathOf({ value: undefined, depth, parent: entry, key: '__proto__' }))}' is not an argument of this tool: '__proto__' is never accepted as a key.`;
  }
  const keys = Object.keys(value);
  if (keys.length > limits.maxItems) return tooManyKeys(entry, keys, limits.maxItems);
  for (const key of keys) {
    if (PROTOTYPE_KEYS.has(key)) {
      return `'${clip(pathOf({ value: undefined, depth, parent: entry, key }))}' is not an argument of this tool: '${key}' is never accepted as a key.`;
    }
    stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: entry, key });
  }
  return undefined;
}

/** The common case, without allocating: a plain object of short strings, numbers and booleans. */
function isFlatWithinLimits(args: unknown, limits: Readonly<ArgumentLimits>): boolean {
  if (typeof args !== 'object' || args === null || Object.getPrototypeOf(args) !== Object.prototype) return false;
  let keys = 0;
  for (const key in args) {
    if (PROTOTYPE_KEYS.has(key) || ++keys > limits.maxItems) return false;
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) return false;
    if (typeof value === 'string' && value.length > limits.maxStringLength) return false;
  }
  return true;
}

/** The keys an error names: a few, so a call with a hundred thousand of them costs no more to refuse. */
export const NAMED_KEYS = 10;

function tooManyKeys(entry: Entry, keys: readonly string[], maxItems: number): string {
  const subject = entry.key === undefined ? 'the arguments have' : `'${clip(pathOf(entry))}' has`;
  return `${subject} ${keys.length} keys; this server accepts at most ${maxItems} in one object: ${namedKeys(keys)}.`;
}

/** `'a', 'b', … and 95990 more`: the first NAMED_KEYS keys, each clipped, and a count of the rest. */
export function namedKeys(keys: readonly string[]): string {
  const named = keys.slice(0, NAMED_KEYS).map((key) => `'${clip(key, 40)}'`).join(', ');
  return keys.length > NAMED_KEYS ? `${named} and ${keys.length - NAMED_KEYS} more` : named;
}

interface Entry {
  value: unknown;
  depth: number;
  parent?: Entry;
  key?: string | number;
}

function pathOf(entry: Entry): string {
  const keys: (string | number)[] = [];
  for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) keys.unshift(at.key);
  return keys.join('.');
}

function where(entry: Entry): string {
  return entry.key === undefined ? 'the arguments' : `'${clip(pathOf(entry))}'`;
}
