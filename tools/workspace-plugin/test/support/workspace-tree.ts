import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';

/** An empty Nx workspace shaped like this one: no formatter configured (so formatFiles is a no-op). */
export function createWorkspaceTree(): Tree {
  const tree = createTreeWithEmptyWorkspace();
  tree.delete('.oxfmtrc.json');
  return tree;
}
