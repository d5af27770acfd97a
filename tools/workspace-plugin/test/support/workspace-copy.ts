import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const workspaceRoot = join(__dirname, '../../../..');
const { linkNodeModules } = require(join(workspaceRoot, 'tools/test-support/link-node-modules.cjs')) as { linkNodeModules(source: string, target: string): void };
const { cleanEnvironment } = require(join(workspaceRoot, 'tools/test-support/adoption.cjs')) as { cleanEnvironment(): NodeJS.ProcessEnv };
const { bundledPreloadEnvironment } = require(join(workspaceRoot, 'tools/jest/bundled-packages.cjs')) as { bundledPreloadEnvironment(): NodeJS.ProcessEnv };

/**
 * A throwaway copy of this workspace: its files (tracked and untracked, not ignored) and its
 * node_modules as links (tools/test-support/link-node-modules.cjs).
 */
export function copyWorkspace(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: workspaceRoot, encoding: 'utf-8' })
    .split('\0')
    .filter((file) => file && existsSync(join(workspaceRoot, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(workspaceRoot, file), join(copy, file));
  }
  linkNodeModules(workspaceRoot, copy);
  return copy;
}

/**
 * The environment a test's Nx runs in: this process's without a running Nx task's or Jest's
 * settings, keeping the preload that loads TypeBox and class-validator from Jest's bundles
 * (tools/jest/bundled-packages-preload.cjs). A copy's node_modules are links to this workspace's,
 * so its contract executors and apps resolve to the files the preload knows: about half a
 * CPU-second less for each process that loads core. Adoption workspaces drop it (their own install).
 */
export const nxEnvironment = (): NodeJS.ProcessEnv => ({ ...cleanEnvironment(), ...bundledPreloadEnvironment() });

/**
 * Like runNx, without blocking this process: for runs that call back into a server the test
 * itself serves on loopback.
 */
export function runNxAsync(copy: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(copy, 'node_modules/nx/dist/bin/nx.js'), ...args], { cwd: copy, env: nxEnvironment() });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: stripVTControlCharacters(output) }));
  });
}

/** Runs the copy's own Nx there, in CI mode and without colour, returning the exit status and plain-text output. */
export function runNx(copy: string, ...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(copy, 'node_modules/nx/dist/bin/nx.js'), ...args], { cwd: copy, env: nxEnvironment(), encoding: 'utf-8' });
  // eslint and Nx colour their output even when asked not to; the assertions read plain text.
  return { status: run.status, output: stripVTControlCharacters(`${run.stdout}\n${run.stderr}`) };
}

/** Like runNx, and throws with the output when Nx fails. */
export function nxIn(copy: string, ...args: string[]): string {
  const { status, output } = runNx(copy, ...args);
  if (status !== 0) throw new Error(`nx ${args.join(' ')} exited with ${status}:\n${output}`);
  return output;
}
