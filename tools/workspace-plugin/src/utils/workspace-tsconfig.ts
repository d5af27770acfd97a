import { updateJson, type Tree } from '@nx/devkit';

const BASE = 'tsconfig.base.json';

function baseCompilerOptions(tree: Tree): Record<string, unknown> {
  return tree.exists(BASE) ? (JSON.parse(tree.read(BASE, 'utf-8') ?? '{}').compilerOptions ?? {}) : {};
}

/**
 * Maps a workspace package to its source in `tsconfig.base.json`. Without a `baseUrl` (TypeScript
 * 6 deprecates it, error TS5101) a mapping must start with `./` (else TS5090).
 */
export function addPathMapping(tree: Tree, packageName: string, file: string): void {
  const relative = baseCompilerOptions(tree)['baseUrl'] === undefined ? `./${file}` : file;
  updateJson(tree, BASE, (json) => {
    json.compilerOptions ??= {};
    json.compilerOptions.paths = { ...json.compilerOptions.paths, [packageName]: [relative] };
    return json;
  });
}

/**
 * A generated project is checked with `tsc -p` and built with swc, and it reaches the workspace's
 * toolset libraries through path mappings. Where the base config is `composite` (what
 * `create-nx-workspace --preset=ts` writes for `tsc --build`), those sources would be outside the
 * project's file list (TS6307), so the project opts out of composite and of the declaration
 * emit that comes with it.
 */
export function optOutOfCompositeBuild(tree: Tree, projectRoot: string): void {
  if (baseCompilerOptions(tree)['composite'] !== true) return;
  updateJson(tree, `${projectRoot}/tsconfig.json`, (json) => {
    json.compilerOptions = { ...json.compilerOptions, composite: false, declaration: false, declarationMap: false, emitDeclarationOnly: false };
    return json;
  });
}

/** This repository's TypeScript 7 wrapper for typecheck targets (tools/typecheck/tsc.cjs), when the workspace has it. */
const NATIVE_TSC = 'tools/typecheck/tsc.cjs';

/**
 * The typecheck command for `configs`: `tsc -p` each with the workspace's TypeScript, or, in a
 * workspace whose own typecheck targets run through tools/typecheck/tsc.cjs (this repository), that.
 */
export function typecheckCommand(tree: Tree, configs: readonly string[]): string {
  if (tree.exists(NATIVE_TSC)) return `node ${NATIVE_TSC} ${configs.join(' ')}`;
  return configs.map((config) => `tsc -p ${config}`).join(' && ');
}
