import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import ts from 'typescript';
import type { ToolEntry } from '../contract/snapshot';

// Plain CommonJS shared with the child process below, which runs it without compiling anything.
const { loadGeneratedSources: load } = require('./generated-modules.cjs') as {
  loadGeneratedSources(files: Record<string, string>, load: (id: string) => unknown, typescript: typeof ts): Record<string, unknown>;
};

/**
 * The generated toolsets' modules, compiled from the sources in memory as the build does (legacy
 * decorators with their metadata) and run in this process: for tests, on documents they wrote.
 * Gives every toolset class (one, or one per tag) and what its module exports.
 */
export function loadGeneratedSources(files: Record<string, string>, loadModule: (id: string) => unknown = require): Record<string, unknown> {
  return load(files, loadModule, ts);
}

/**
 * The tools a generated library advertises, gated by the workspace's own core, as the contract
 * target records them. The generated code runs in a child process whose environment holds only
 * PATH: a document is data from outside, and the generator's size report and the scheduled
 * refresh (whose environment holds the spec token) must not run what it smuggled in with their rights.
 * Throws the startup gate's message when the catalog breaks the contract.
 */
export function gatedCatalogInChild(workspaceRoot: string, files: Record<string, string>, name: string): ToolEntry[] {
  const child = spawnSync(process.execPath, [join(__dirname, 'generated-catalog.child.cjs')], {
    input: JSON.stringify({ workspaceRoot, files, name }),
    encoding: 'utf-8',
    env: { PATH: process.env['PATH'] ?? '' },
    maxBuffer: 1024 * 2 ** 20,
  });
  if (child.error) throw child.error;
  if (child.status !== 0) throw new Error(child.stderr.trim() || `the generated code's process ended with ${child.status ?? child.signal}`);
  return JSON.parse(child.stdout) as ToolEntry[];
}
