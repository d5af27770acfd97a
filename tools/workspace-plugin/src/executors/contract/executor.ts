import type { ExecutorContext } from '@nx/devkit';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as Core from '@toolsets/core';
import { reportGate } from '../../utils/report-gate';
import type { ContractExecutorSchema } from './schema';

/**
 * The contract target: the same startup gate a server runs, over everything a toolset library
 * exports, so a toolset that breaks the contract fails CI even when its own tests pass.
 */
export default async function contractExecutor(options: ContractExecutorSchema, context: ExecutorContext): Promise<{ success: boolean }> {
  const projectName = context.projectName ?? 'toolset';
  const root = context.projectsConfigurations?.projects[projectName]?.root ?? '.';
  const entry = resolve(context.root, options.entry ?? join(root, 'dist/index.js'));
  if (!existsSync(entry)) {
    console.error(`${entry} does not exist: build the toolset first (nx run ${projectName}:build); the contract target depends on build.`);
    return { success: false };
  }
  // Resolve from the entry itself: the core it loads is the one whose metadata the gate must read.
  // (createRequire also works where Nx loads this executor as an ES module, as Node 22 may.)
  const requireFromEntry = createRequire(entry);
  const core: typeof Core = requireFromEntry('@toolsets/core');
  const toolsets = core.findToolsets(requireFromEntry(entry));
  if (toolsets.length === 0) {
    console.error(`${projectName} exports no @Toolset class from ${entry}; export the toolset class from the library's index.ts.`);
    return { success: false };
  }
  return reportGate(core, () => core.describeCatalog(core.runContractGate(projectName, toolsets)));
}
