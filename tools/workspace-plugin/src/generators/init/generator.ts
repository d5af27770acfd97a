import {
  addDependenciesToPackageJson,
  formatFiles,
  installPackagesTask,
  logger,
  updateJson,
  type GeneratorCallback,
  type Tree,
} from '@nx/devkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_PEER_DEPENDENCIES } from '../../utils/core-packages';
import { knownVersions, pluginFile } from '../../utils/plugin-files';
import { rememberWhatIsReplaced } from '../../utils/written-files';
import { InitInstallError } from './init-install.error';
import type { InitGeneratorSchema } from './schema';

/** Compiler options the decorators need: legacy decorators with design-type metadata, class fields assigned by the framework. */
const DECORATOR_OPTIONS = { experimentalDecorators: true, emitDecoratorMetadata: true, useDefineForClassFields: false };

const BASE_COMPILER_OPTIONS = {
  target: 'ES2022',
  lib: ['ES2023'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  types: ['node'],
  strict: true,
  esModuleInterop: true,
  isolatedModules: true,
  skipLibCheck: true,
  sourceMap: true,
  rootDir: '.',
  paths: {},
};

const PLUGINS = [{ plugin: '@nx/jest/plugin', options: { targetName: 'test' } }, { plugin: '@nx/eslint/plugin', options: { targetName: 'lint' } }, '@toolsets/workspace-plugin'];

/** Runtime packages toolsets use (the app owns the single copy), and the tools the generated projects run. */
const DEPENDENCIES = ['@toolsets/core', ...CORE_PEER_DEPENDENCIES, '@modelcontextprotocol/node', 'typebox'];
const DEV_DEPENDENCIES = [
  '@toolsets/testing',
  // The dev loop's file watcher (tools/build/dev-app.cjs): it survives atomic saves, fs.watch does not.
  '@parcel/watcher',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/sdk',
  '@nx/jest',
  '@nx/eslint',
  '@nx/eslint-plugin',
  '@swc/core',
  '@swc/helpers',
  '@swc/jest',
  '@types/jest',
  '@types/node',
  '@typescript-eslint/parser',
  'eslint',
  'jest',
  'jsonc-eslint-parser',
  'typescript',
  'typescript-eslint',
];

/**
 * `nx add @toolsets/workspace-plugin` runs this: it sets up an existing Nx workspace so the
 * `toolset`, `tool` and `app` generators work there as they do in the toolsets repository.
 * Files the workspace already has (a Jest preset, an ESLint config) are left alone, with a note.
 */
export default async function initGenerator(tree: Tree, options: InitGeneratorSchema = {}): Promise<GeneratorCallback | undefined> {
  updateTsconfig(tree);
  for (const script of ['build-project.cjs', 'build-views.cjs', 'swc-options.cjs', 'dev-app.cjs', 'dev-standby.cjs', 'package-app.cjs', 'mcpb-app.cjs', 'server-json-app.cjs', 'schemas/server.schema.json', 'schemas/README.md']) {
    writeIfAbsent(tree, `tools/build/${script}`, pluginFile(__dirname, `build/${script}`));
  }
  for (const file of ['jest.preset.js', 'eslint.config.mjs']) {
    if (!tree.exists(file)) tree.write(file, readFileSync(join(__dirname, 'files', `${file}__tmpl__`), 'utf-8'));
    else logger.warn(`${file} exists and was left as it is: make sure it follows ${file === 'jest.preset.js' ? 'the swc transform in docs/adopting.md (decorator metadata kept, typebox transformed)' : 'the module-boundary tags in docs/architecture.md (type:toolset, type:app)'}.`);
  }
  updateNxJson(tree);
  updateJson(tree, 'package.json', (json) => {
    const workspaces: string[] = Array.isArray(json.workspaces) ? json.workspaces : [];
    for (const glob of ['libs/toolsets/*', 'apps/*']) if (!workspaces.includes(glob)) workspaces.push(glob);
    json.workspaces = workspaces;
    return json;
  });
  const versions = knownVersions(__dirname);
  const pick = (names: readonly string[]) => Object.fromEntries(names.filter((name) => versions[name]).map((name) => [name, versions[name]]));
  addDependenciesToPackageJson(tree, pick(DEPENDENCIES), pick(DEV_DEPENDENCIES), undefined, true);
  await formatFiles(tree);
  if (options.skipInstall) return undefined;
  const written = rememberWhatIsReplaced(tree, ['package-lock.json']);
  return () => {
    try {
      installPackagesTask(tree, true);
    } catch (error) {
      // A half set-up workspace (files written, packages missing) is worse than none: put it back.
      const undone = written.restore();
      throw new InitInstallError((error as Error).message, undone);
    }
  };
}

function updateTsconfig(tree: Tree): void {
  if (!tree.exists('tsconfig.base.json')) {
    tree.write('tsconfig.base.json', JSON.stringify({ compileOnSave: false, compilerOptions: { ...BASE_COMPILER_OPTIONS, ...DECORATOR_OPTIONS }, exclude: ['node_modules', 'tmp', 'dist'] }, null, 2));
    return;
  }
  updateJson(tree, 'tsconfig.base.json', (json) => {
    json.compilerOptions = { ...json.compilerOptions, ...DECORATOR_OPTIONS };
    json.compilerOptions.paths ??= {};
    return json;
  });
}

function updateNxJson(tree: Tree): void {
  if (!tree.exists('nx.json')) tree.write('nx.json', JSON.stringify({ $schema: './node_modules/nx/schemas/nx-schema.json' }));
  updateJson(tree, 'nx.json', (json) => {
    const plugins: (string | { plugin: string })[] = json.plugins ?? [];
    const has = (name: string) => plugins.some((entry) => (typeof entry === 'string' ? entry : entry.plugin) === name);
    for (const plugin of PLUGINS) if (!has(typeof plugin === 'string' ? plugin : plugin.plugin)) plugins.push(plugin);
    json.plugins = plugins;
    // The contract targets hash their project's production files. tsconfig.base.json is not a
    // shared input: Nx hashes its compiler options itself, and each project's own path mapping only,
    // so a generator adding a mapping does not invalidate every project's cache.
    json.namedInputs ??= {};
    json.namedInputs.sharedGlobals ??= ['{workspaceRoot}/jest.preset.js'];
    json.namedInputs.default ??= ['{projectRoot}/**/*', 'sharedGlobals'];
    json.namedInputs.production ??= ['default', '!{projectRoot}/**/?(*.)+(spec|test).ts', '!{projectRoot}/jest.config.cjs', '!{projectRoot}/tsconfig.spec.json', '!{projectRoot}/eslint.config.mjs'];
    json.targetDefaults ??= {};
    json.targetDefaults.build = { cache: true, dependsOn: ['^build'], outputs: ['{projectRoot}/dist'], ...json.targetDefaults.build };
    return json;
  });
}

function writeIfAbsent(tree: Tree, path: string, content: string): void {
  if (!tree.exists(path)) tree.write(path, content);
}
