import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ClassType } from '@toolsets/core';
import { buildLibrary, writeLibrary } from '../generated-library';
import { directoryDocument } from '../openapi-documents';

const workspaceRoot = resolve(__dirname, '../../../../..');
const GENERATOR_MODULE = join(workspaceRoot, 'tools/workspace-plugin/src/openapi/generate-toolset.ts');
const TASKS_FILE = join(workspaceRoot, 'tools/bench/src/scenarios/code-mode/held-out-search-tasks.json');

type GenerateToolset = (name: string, document: unknown, config: object) => Promise<{ files: Record<string, string>; toolsets: { className: string; name: string }[] }>;

/** The held-out set (`held-out-search-tasks.json`): its documents by API, and its tasks in order. */
export interface HeldOutSet {
  apis: Record<string, string>;
  tasks: { api: string; task: string; steps: { words: string; tool: string; alsoRight?: string[] }[] }[];
}

/** A hit of code mode's `search`: by its call path (`api.<toolset>.<tool>`), or by name where programs cannot call it. */
export type SearchHit = { call?: string; name?: string };

/** The tool a hit names (a generated tool's name is its own identifier, the call path's last part). */
export const hitName = (hit: SearchHit): string => hit.name ?? hit.call?.split('.').pop() ?? '';

/** The 1-based rank of any of `tools` in `hits`, or 0 when none is there. */
export const rankOf = (hits: readonly string[], tools: readonly string[]) => hits.findIndex((hit) => tools.includes(hit)) + 1;

export const heldOutSet = (): HeldOutSet => JSON.parse(readFileSync(TASKS_FILE, 'utf-8')) as HeldOutSet;

/**
 * One API of the held-out set generated as the scenarios serve it (`--groupBy=tag`, its own
 * credential header), written under tmp/ and built: its document, its toolset classes, and the
 * folder the caller removes.
 */
export async function heldOutLibrary(api: string, file: string, prefix: string): Promise<{ document: unknown; toolsets: ClassType[]; dir: string }> {
  require('@swc-node/register');
  const { generateToolset } = require(GENERATOR_MODULE) as { generateToolset: GenerateToolset };
  const document = directoryDocument(file);
  const generated = await generateToolset(api, document, { credentialHeader: `x-${api}-token`, groupBy: 'tag', schemaBudget: 16_384 });
  const dir = writeLibrary(generated.files, `${prefix}-${api}-`);
  buildLibrary(dir);
  const exported = require(join(dir, 'dist/index.js')) as Record<string, ClassType>;
  return { document, toolsets: generated.toolsets.map((t) => exported[t.className]!), dir };
}
