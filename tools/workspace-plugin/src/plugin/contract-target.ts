import { createNodesFromFiles, readJsonFile, type CreateNodesV2, type TargetConfiguration } from '@nx/devkit';
import { dirname, join } from 'node:path';

const TOOLSET_TAG = 'type:toolset';

/** What every toolset project gets: run the startup gate over its built exports. */
export const contractTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:contract',
  dependsOn: ['build'],
  cache: true,
  inputs: ['production', '^production'],
  outputs: [],
};

/** Infers a `contract` target for every project tagged `type:toolset`, however it was created. */
export const createNodesV2: CreateNodesV2 = [
  '**/project.json',
  (projectFiles, options, context) =>
    createNodesFromFiles(
      (file, _options, ctx) => {
        const project = readJsonFile<{ tags?: string[] }>(join(ctx.workspaceRoot, file));
        if (!project.tags?.includes(TOOLSET_TAG)) return {};
        return { projects: { [dirname(file)]: { targets: { contract: contractTarget } } } };
      },
      projectFiles,
      options,
      context,
    ),
];
