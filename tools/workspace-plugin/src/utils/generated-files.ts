import { joinPathFragments, type Tree } from '@nx/devkit';

/**
 * Writes a generated library's files into the tree where they differ, and deletes what the
 * generator no longer writes under `src/generated` (a tag that went away, a tool excluded since).
 * Returns whether anything changed: what `nx sync:check` reports as out of sync.
 */
export function writeGeneratedFiles(tree: Tree, projectRoot: string, files: Record<string, string>): boolean {
  let changed = false;
  for (const [path, content] of Object.entries(files)) {
    const target = joinPathFragments(projectRoot, path);
    if (tree.read(target, 'utf-8') === content) continue;
    tree.write(target, content);
    changed = true;
  }
  const folder = joinPathFragments(projectRoot, 'src/generated');
  for (const file of tree.exists(folder) ? tree.children(folder) : []) {
    if (files[`src/generated/${file}`] !== undefined) continue;
    tree.delete(joinPathFragments(folder, file));
    changed = true;
  }
  return changed;
}
