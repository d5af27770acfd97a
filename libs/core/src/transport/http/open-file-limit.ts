import { readFileSync } from 'node:fs';

/**
 * The process's soft limit on open files (`ulimit -n`), read from `/proc/self/limits` on Linux;
 * undefined where it cannot be read (another system) or is unlimited.
 */
export function openFileLimit(limitsText: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = limitsText();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const value = Number(soft);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * How many connections can be held open within `fileLimit`, leaving room for everything else the
 * process opens (its own files and pipes, outgoing connections to Redis or an upstream, a refused
 * connection's socket while its 503 goes out): an eighth of the limit, at least 64.
 */
export function connectionsWithin(fileLimit: number): number {
  return Math.max(1, fileLimit - Math.max(64, Math.ceil(fileLimit / 8)));
}
