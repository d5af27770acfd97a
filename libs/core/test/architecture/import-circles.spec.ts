import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const WORKSPACE = resolve(__dirname, '../../../..');

/** Every `.ts` file under `root` and the files of this library it imports (type-only imports too). */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) graph.set(path, []);
    }
  };
  walk(root);
  for (const [file, imports] of graph) {
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
      const base = resolve(dirname(file), target!);
      const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
      if (found) imports.push(found);
    }
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

/**
 * No file of a published library imports, through any chain, a file that imports it back: a type
 * each side needs belongs in a file of its own below both (call-site.ts, mount.ts). Type-only
 * imports count: they are how such circles start.
 */
describe('the import graph of each published library', () => {
  it.each(['libs/core/src', 'libs/code-mode/src', 'libs/openapi/src', 'libs/testing/src', 'libs/mcp-upstream/src'])('has no circle in %s', (library) => {
    const root = join(WORKSPACE, library);
    expect(circles(importGraph(root)).map((group) => group.map((file) => relative(root, file)).join(' <-> '))).toEqual([]);
  });
});
