import { logger, readJson, type Tree } from '@nx/devkit';
import initGenerator from '../../src/generators/init/generator';
import { createWorkspaceTree } from '../support/workspace-tree';

describe('init generator', () => {
  let tree: Tree;

  beforeEach(() => {
    tree = createWorkspaceTree();
  });

  it('adds the decorator options to tsconfig.base.json, keeping what is there and adding no baseUrl (TypeScript 6 refuses it, TS5101)', async () => {
    tree.write('tsconfig.base.json', JSON.stringify({ compilerOptions: { strict: true, paths: { '@acme/x': ['libs/x/src/index.ts'] } } }));
    await initGenerator(tree, { skipInstall: true });
    expect(readJson(tree, 'tsconfig.base.json').compilerOptions).toEqual({
      strict: true,
      paths: { '@acme/x': ['libs/x/src/index.ts'] },
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      useDefineForClassFields: false,
    });
  });

  it('registers this plugin with @nx/jest and @nx/eslint once, and the named inputs the contract target hashes', async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    await initGenerator(tree, { skipInstall: true });
    await initGenerator(tree, { skipInstall: true });
    warn.mockRestore();
    const nx = readJson(tree, 'nx.json');
    expect(nx.plugins.filter((p: unknown) => p === '@toolsets/workspace-plugin')).toHaveLength(1);
    expect(nx.plugins).toContainEqual({ plugin: '@nx/jest/plugin', options: { targetName: 'test' } });
    expect(nx.namedInputs.production[0]).toBe('default');
    // Generators add path mappings to tsconfig.base.json: as a shared input it would invalidate every project.
    expect(nx.namedInputs.sharedGlobals).toEqual(['{workspaceRoot}/jest.preset.js']);
    expect(nx.targetDefaults.build).toMatchObject({ dependsOn: ['^build'] });
  });

  it('writes the swc build, a Jest preset and an ESLint config with module boundaries, and the dependencies with their versions', async () => {
    await initGenerator(tree, { skipInstall: true });
    expect(tree.read('tools/build/swc-options.cjs', 'utf-8')).toContain('decoratorMetadata: true');
    // The edit loop of every app the app generator makes (its dev target).
    expect(tree.exists('tools/build/dev-app.cjs') && tree.exists('tools/build/dev-standby.cjs') && tree.exists('tools/build/build-views.cjs')).toBe(true);
    expect(tree.read('jest.preset.js', 'utf-8')).toContain("transformIgnorePatterns: ['node_modules/(?!(typebox|jose)/)']");
    expect(tree.read('eslint.config.mjs', 'utf-8')).toContain("{ sourceTag: 'type:toolset', onlyDependOnLibsWithTags: ['type:shared', 'type:testing'] }");
    const pkg = readJson(tree, 'package.json');
    expect(pkg.dependencies).toMatchObject({ '@toolsets/core': expect.any(String), 'reflect-metadata': expect.any(String), tsyringe: expect.any(String) });
    expect(pkg.devDependencies).toMatchObject({ '@toolsets/testing': expect.any(String), '@swc/jest': expect.any(String) });
    expect(pkg.workspaces).toEqual(expect.arrayContaining(['libs/toolsets/*', 'apps/*']));
  });

  it('leaves an existing Jest preset and ESLint config alone, saying what they need', async () => {
    tree.write('jest.preset.js', 'module.exports = {};');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    await initGenerator(tree, { skipInstall: true });
    expect(tree.read('jest.preset.js', 'utf-8')).toBe('module.exports = {};');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('jest.preset.js exists and was left as it is'));
    warn.mockRestore();
  });
});
