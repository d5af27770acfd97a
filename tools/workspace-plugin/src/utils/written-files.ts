import type { Tree } from '@nx/devkit';
import { existsSync, readFileSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What a generator's changes replaced on disk, so a step after the write can put it back. */
export interface WrittenFiles {
  /** Writes every replaced file back and deletes every created one (and folders left empty); returns the paths. */
  restore(): string[];
}

/**
 * Reads, before Nx writes the tree, what each pending change will replace, plus `alsoKeep` (files a
 * later step such as `npm install` may rewrite). Call it last in the generator.
 */
export function rememberWhatIsReplaced(tree: Tree, alsoKeep: readonly string[] = []): WrittenFiles {
  const read = (path: string) => (existsSync(join(tree.root, path)) ? readFileSync(join(tree.root, path)) : undefined);
  const paths = [...new Set([...tree.listChanges().map((change) => change.path), ...alsoKeep])];
  const before = new Map(paths.map((path) => [path, read(path)] as const));
  return {
    restore() {
      for (const [path, content] of before) {
        const file = join(tree.root, path);
        if (content) writeFileSync(file, content);
        else if (existsSync(file)) {
          rmSync(file);
          removeEmptyFolders(tree.root, dirname(path));
        }
      }
      return [...before.keys()].filter((path) => before.get(path) || !alsoKeep.includes(path));
    },
  };
}

function removeEmptyFolders(root: string, folder: string): void {
  for (let dir = folder; dir !== '.' && dir !== ''; dir = dirname(dir)) {
    const full = join(root, dir);
    if (!existsSync(full) || readdirSync(full).length > 0) return;
    rmdirSync(full);
  }
}
