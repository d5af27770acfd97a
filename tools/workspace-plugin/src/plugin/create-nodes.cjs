// The targets the plugin infers (its `createNodesV2`), in plain CommonJS: Nx loads a plugin written
// in TypeScript through a transpiler (swc-node, which reads the tsconfig with the TypeScript
// compiler: 9 MB of JavaScript) each time it computes the project graph, about 0.4 CPU-seconds a
// command. This file needs neither, in this workspace (nx.json names it) or in one that installed
// the plugin (src/index.js re-exports it). Types: create-nodes.d.cts.
const { createNodesFromFiles, readJsonFile } = require('@nx/devkit');
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

/** The tags the generators give a toolset library and an app (src/utils/workspace.ts exports these). */
const TOOLSET_TAG = 'type:toolset';
const APP_TAG = 'type:app';

/**
 * What every toolset project gets: run the startup gate over its built exports and compare the
 * catalog with the committed contract.json (an input, being a project file). The snapshot is also
 * an output, so a cached run of `--update`, or of the first run that writes it, restores the file.
 */
const contractTarget = {
  executor: '@toolsets/workspace-plugin:contract',
  dependsOn: ['build'],
  cache: true,
  inputs: ['production', '^production'],
  outputs: ['{projectRoot}/contract.json'],
};

/** What every app gets: build its servers (the gate runs) from its built servers.js, without listening. */
const appContractTarget = {
  executor: '@toolsets/workspace-plugin:app-contract',
  // The app's servers load its toolset libraries' built entries.
  dependsOn: ['build', '^build'],
  cache: true,
  inputs: ['production', '^production'],
  // What an app serves through curate() is recorded here (contract.<server>.json).
  outputs: ['{projectRoot}/contract.*.json'],
};

/** What a toolset generated from an OpenAPI document's URL gets: fetch it again, classify, rewrite (`--check`: report). */
const openApiRefreshTarget = {
  executor: '@toolsets/workspace-plugin:openapi-refresh',
  // The catalog is built by the workspace's core and the generated code's @toolsets/openapi.
  dependsOn: ['^build'],
  cache: false,
};

/** What a toolset generated from an upstream MCP server gets: read the server again, classify, rewrite (`--check`: report). */
const mcpRefreshTarget = {
  executor: '@toolsets/workspace-plugin:mcp-refresh',
  // The catalog is built by the workspace's core and the generated code's @toolsets/mcp-upstream.
  dependsOn: ['^build'],
  cache: false,
};

/** What every toolset generated from an OpenAPI document gets: print what its config can curate (keys, arguments, answer paths). */
const openApiPathsTarget = {
  executor: '@toolsets/workspace-plugin:openapi-paths',
  cache: false,
};

/** What every toolset generated from an OpenAPI document gets: measure what its curation does (against a mock of the document). */
const openApiMeasureTarget = {
  executor: '@toolsets/workspace-plugin:openapi-measure',
  // The generated code runs on the workspace's core, @toolsets/openapi and @toolsets/testing.
  dependsOn: ['^build'],
  cache: false,
};

/** Only beside a project's own file: targets for a folder that is no project (a test's scratch copy) make Nx refuse the whole graph. */
const isProjectFolder = (workspaceRoot, folder) => ['project.json', 'package.json'].some((own) => existsSync(join(workspaceRoot, folder, own)));

function targetsFor(file, workspaceRoot) {
  const folder = dirname(file);
  if (file.endsWith('mcp.config.json')) {
    return isProjectFolder(workspaceRoot, folder) ? { projects: { [folder]: { targets: { 'mcp-refresh': mcpRefreshTarget } } } } : {};
  }
  if (file.endsWith('openapi.config.json')) {
    if (!isProjectFolder(workspaceRoot, folder)) return {};
    const config = readJsonFile(join(workspaceRoot, file));
    const targets = { 'openapi-paths': openApiPathsTarget, 'openapi-measure': openApiMeasureTarget, ...(typeof config.source === 'string' && { 'openapi-refresh': openApiRefreshTarget }) };
    return { projects: { [folder]: { targets } } };
  }
  const tags = readJsonFile(join(workspaceRoot, file)).tags;
  const target = tags?.includes(TOOLSET_TAG) ? contractTarget : tags?.includes(APP_TAG) ? appContractTarget : undefined;
  return target ? { projects: { [folder]: { targets: { contract: target } } } } : {};
}

/**
 * Infers a `contract` target for every project tagged `type:toolset` or `type:app`, however it was
 * created, `openapi-paths` and `openapi-measure` targets for every library with an openapi.config.json, an
 * `openapi-refresh` target for every one whose openapi.config.json records a source URL, and an
 * `mcp-refresh` target for every library generated from an upstream MCP server (an mcp.config.json).
 */
const createNodesV2 = [
  '**/{project.json,openapi.config.json,mcp.config.json}',
  (projectFiles, options, context) => createNodesFromFiles((file, _options, ctx) => targetsFor(file, ctx.workspaceRoot), projectFiles, options, context),
];

module.exports = { createNodesV2, TOOLSET_TAG, APP_TAG };
