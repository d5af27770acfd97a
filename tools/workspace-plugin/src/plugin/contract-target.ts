import { createNodesFromFiles, readJsonFile, type CreateNodesV2, type TargetConfiguration } from '@nx/devkit';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { APP_TAG, TOOLSET_TAG } from '../utils/workspace';

/**
 * What every toolset project gets: run the startup gate over its built exports and compare the
 * catalog with the committed contract.json (an input, being a project file). The snapshot is also
 * an output, so a cached run of `--update`, or of the first run that writes it, restores the file.
 */
export const contractTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:contract',
  dependsOn: ['build'],
  cache: true,
  inputs: ['production', '^production'],
  outputs: ['{projectRoot}/contract.json'],
};

/** What every app gets: build its servers (the gate runs) from its built servers.js, without listening. */
export const appContractTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:app-contract',
  // The app's servers load its toolset libraries' built entries.
  dependsOn: ['build', '^build'],
  cache: true,
  inputs: ['production', '^production'],
  // What an app serves through curate() is recorded here (contract.<server>.json).
  outputs: ['{projectRoot}/contract.*.json'],
};

/** What a toolset generated from an OpenAPI document's URL gets: fetch it again, classify, rewrite (`--check`: report). */
export const openApiRefreshTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:openapi-refresh',
  // The catalog is built by the workspace's core and the generated code's @toolsets/openapi.
  dependsOn: ['^build'],
  cache: false,
};

/** What a toolset generated from an upstream MCP server gets: read the server again, classify, rewrite (`--check`: report). */
export const mcpRefreshTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:mcp-refresh',
  // The catalog is built by the workspace's core and the generated code's @toolsets/mcp-upstream.
  dependsOn: ['^build'],
  cache: false,
};

/** What every toolset generated from an OpenAPI document gets: print what its config can curate (keys, arguments, answer paths). */
export const openApiPathsTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:openapi-paths',
  cache: false,
};

/** What every toolset generated from an OpenAPI document gets: measure what its curation does (against a mock of the document). */
export const openApiMeasureTarget: TargetConfiguration = {
  executor: '@toolsets/workspace-plugin:openapi-measure',
  // The generated code runs on the workspace's core, @toolsets/openapi and @toolsets/testing.
  dependsOn: ['^build'],
  cache: false,
};

/**
 * Infers a `contract` target for every project tagged `type:toolset` or `type:app`, however it was
 * created, `openapi-paths` and `openapi-measure` targets for every library with an openapi.config.json, an
 * `openapi-refresh` target for every one whose openapi.config.json records a source URL, and an
 * `mcp-refresh` target for every library generated from an upstream MCP server (an mcp.config.json).
 */
export const createNodesV2: CreateNodesV2 = [
  '**/{project.json,openapi.config.json,mcp.config.json}',
  (projectFiles, options, context) =>
    createNodesFromFiles(
      (file, _options, ctx) => {
        if (file.endsWith('mcp.config.json')) {
          if (!['project.json', 'package.json'].some((own) => existsSync(join(ctx.workspaceRoot, dirname(file), own)))) return {};
          return { projects: { [dirname(file)]: { targets: { 'mcp-refresh': mcpRefreshTarget } } } };
        }
        if (file.endsWith('openapi.config.json')) {
          // Only beside a project's own file: targets for a folder that is no project (a test's scratch copy) make Nx refuse the whole graph.
          if (!['project.json', 'package.json'].some((own) => existsSync(join(ctx.workspaceRoot, dirname(file), own)))) return {};
          const config = readJsonFile<{ source?: unknown }>(join(ctx.workspaceRoot, file));
          const targets = { 'openapi-paths': openApiPathsTarget, 'openapi-measure': openApiMeasureTarget, ...(typeof config.source === 'string' && { 'openapi-refresh': openApiRefreshTarget }) };
          return { projects: { [dirname(file)]: { targets } } };
        }
        const project = readJsonFile<{ tags?: string[] }>(join(ctx.workspaceRoot, file));
        const target = project.tags?.includes(TOOLSET_TAG) ? contractTarget : project.tags?.includes(APP_TAG) ? appContractTarget : undefined;
        if (!target) return {};
        return { projects: { [dirname(file)]: { targets: { contract: target } } } };
      },
      projectFiles,
      options,
      context,
    ),
];
