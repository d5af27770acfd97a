import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const workspaceRoot = resolve(__dirname, '../../../..');

/**
 * A generated toolset library written under the workspace's tmp/ (ignored by git), so it resolves
 * `@toolsets/*` as any library does; the caller removes the folder.
 */
export function writeLibrary(files: Record<string, string>, prefix: string): string {
  mkdirSync(join(workspaceRoot, 'tmp'), { recursive: true });
  const dir = mkdtempSync(join(workspaceRoot, 'tmp', prefix));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** The swc build every library gets (`src` → `dist`), in ms; throws with swc's words when it fails. */
export function buildLibrary(dir: string): number {
  const started = performance.now();
  const build = spawnSync(process.execPath, [join(workspaceRoot, 'tools/build/build-project.cjs'), join(dir, 'src'), join(dir, 'dist')], { encoding: 'utf-8' });
  if (build.status !== 0) throw new Error(`swc build of ${dir} failed:\n${build.stderr}`);
  return performance.now() - started;
}

/** `tsc --noEmit` over the library with the workspace's compiler options, in ms, and whether it passed. */
export function typecheckLibrary(dir: string): { ms: number; ok: boolean } {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(workspaceRoot, 'tsconfig.base.json'), compilerOptions: { noEmit: true, baseUrl: workspaceRoot }, include: [join(dir, 'src/**/*.ts')], exclude: [] }),
  );
  const started = performance.now();
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf-8', cwd: workspaceRoot });
  return { ms: performance.now() - started, ok: tsc.status === 0 };
}
