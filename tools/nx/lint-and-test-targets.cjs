// This workspace's `lint` and `test` targets, as @nx/eslint/plugin and @nx/jest/plugin inferred
// them (`eslint .` and `jest` in the project's folder; inputs, outputs and caching come from
// nx.json's targetDefaults), without what those two plugins load to infer them: ESLint, this
// workspace's whole ESLint config (typescript-eslint, @nx/eslint-plugin) and @nx/js, about 0.8
// CPU-seconds each time Nx computes the project graph anew. In a test's workspace copy that is
// after almost every command (the copy's files change between them), about a hundred times a run
// (docs/contributing.md, "Where the time went"). Plain CommonJS, so Nx loads it without a TypeScript
// transpiler. Workspaces that adopt toolsets keep Nx's own plugins: this file is not published.
const { existsSync, readFileSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');

const JEST_CONFIGS = ['jest.config.cjs', 'jest.config.js', 'jest.config.mjs', 'jest.config.ts'];

/** Nx's package.json projects are the ones the root package.json's `workspaces` globs name (`libs/*`). */
function workspaceGlobs(workspaceRoot) {
  const { workspaces = [] } = JSON.parse(readFileSync(join(workspaceRoot, 'package.json'), 'utf-8'));
  const patterns = Array.isArray(workspaces) ? workspaces : (workspaces.packages ?? []);
  return patterns.map((glob) => new RegExp(`^${glob.split('/').map((part) => (part === '*' ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`));
}

/** A project's folder: its own project.json, or a package.json the workspaces name (never the root). */
function projectFolder(file, workspaceRoot, globs) {
  const folder = dirname(file);
  if (folder === '.') return undefined;
  if (basename(file) === 'project.json') return folder;
  if (existsSync(join(workspaceRoot, folder, 'project.json'))) return undefined;
  return globs().some((glob) => glob.test(folder)) ? folder : undefined;
}

function targetsOf(folder, workspaceRoot) {
  const targets = { lint: { executor: 'nx:run-commands', options: { cwd: folder, command: 'eslint .' }, outputs: ['{options.outputFile}'] } };
  const jestConfig = JEST_CONFIGS.find((name) => existsSync(join(workspaceRoot, folder, name)));
  if (jestConfig) {
    // As @nx/jest/plugin sets it, for a jest.config.ts that ts-node compiles.
    const env = jestConfig.endsWith('.ts') ? { TS_NODE_COMPILER_OPTIONS: JSON.stringify({ moduleResolution: 'node10', module: 'commonjs', customConditions: null }) } : undefined;
    targets.test = { executor: 'nx:run-commands', options: { cwd: folder, command: 'jest', ...(env && { env }) } };
  }
  return targets;
}

exports.createNodesV2 = [
  '**/{project.json,package.json}',
  (files, _options, context) => {
    let globs;
    const lazyGlobs = () => (globs ??= workspaceGlobs(context.workspaceRoot));
    return files.flatMap((file) => {
      const folder = projectFolder(file, context.workspaceRoot, lazyGlobs);
      return folder ? [[file, { projects: { [folder]: { targets: targetsOf(folder, context.workspaceRoot) } } }]] : [];
    });
  },
];
