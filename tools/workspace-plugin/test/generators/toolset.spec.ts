import { readJson, readProjectConfiguration, type Tree } from '@nx/devkit';
import { createWorkspaceTree } from '../support/workspace-tree';
import { toolsetGenerator } from '../../src/generators/toolset/generator';

describe('toolset generator', () => {
  let tree: Tree;

  beforeEach(() => {
    tree = createWorkspaceTree();
  });

  it('maps the package relative to baseUrl where the workspace has one', async () => {
    tree.write('tsconfig.base.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: {} } }));
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
    expect(readJson(tree, 'tsconfig.base.json').compilerOptions.paths['@toolsets/library']).toEqual(['libs/toolsets/library/src/index.ts']);
  });

  it('opts the project out of a composite base config, whose file lists would refuse the mapped sources (TS6307)', async () => {
    tree.write('tsconfig.base.json', JSON.stringify({ compilerOptions: { composite: true, declarationMap: true, emitDeclarationOnly: true } }));
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
    expect(readJson(tree, 'libs/toolsets/library/tsconfig.json').compilerOptions).toEqual({ composite: false, declaration: false, declarationMap: false, emitDeclarationOnly: false });
  });

  it("typechecks with tsc -p, or with the workspace's tools/typecheck/tsc.cjs where it has one (this repository's TypeScript 7)", async () => {
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
    expect(readProjectConfiguration(tree, '@toolsets/library').targets?.['typecheck']?.options.command).toBe(
      'tsc -p libs/toolsets/library/tsconfig.lib.json && tsc -p libs/toolsets/library/tsconfig.spec.json',
    );
    tree.write('tools/typecheck/tsc.cjs', '');
    await toolsetGenerator(tree, { name: 'ledger', skipInstall: true });
    expect(readProjectConfiguration(tree, '@toolsets/ledger').targets?.['typecheck']?.options.command).toBe(
      'node tools/typecheck/tsc.cjs libs/toolsets/ledger/tsconfig.lib.json libs/toolsets/ledger/tsconfig.spec.json',
    );
  });

  it('creates a toolset library with one conforming tool, a spec and the project wiring', async () => {
    await toolsetGenerator(tree, { name: 'library', description: 'Books and loans.', skipInstall: true });

    const project = readProjectConfiguration(tree, '@toolsets/library');
    expect(project.root).toBe('libs/toolsets/library');
    expect(project.tags).toEqual(['type:toolset']);
    expect(Object.keys(project.targets ?? {})).toEqual(['build', 'typecheck']);
    expect(readJson(tree, 'libs/toolsets/library/package.json')).toMatchObject({ name: '@toolsets/library', main: './dist/index.js' });
    // No baseUrl in the empty workspace: TypeScript needs the mapping to start with ./ (TS5090).
    expect(readJson(tree, 'tsconfig.base.json').compilerOptions.paths['@toolsets/library']).toEqual(['./libs/toolsets/library/src/index.ts']);
    expect(readJson(tree, 'libs/toolsets/library/tsconfig.json').compilerOptions).toBeUndefined();
    expect(tree.read('libs/toolsets/library/jest.config.cjs', 'utf-8')).toContain("preset: '../../../jest.preset.js'");

    const toolset = tree.read('libs/toolsets/library/src/lib/library.toolset.ts', 'utf-8')!;
    expect(toolset).toContain("description: 'Books and loans.'");
    expect(toolset).toContain('export class LibraryToolset {');
    expect(toolset).toContain("name: 'library_echo'");
    expect(toolset).toContain('returns: [EchoResult, ToolError]');
    expect(toolset).not.toContain('credentialHeaders');
    expect(tree.exists('libs/toolsets/library/src/lib/access.dto.ts')).toBe(false);
    expect(tree.read('libs/toolsets/library/src/lib/echo.dto.ts', 'utf-8')).toContain('export class EchoResult extends ToolResult');

    const spec = tree.read('libs/toolsets/library/test/library.toolset.spec.ts', 'utf-8')!;
    expect(spec).toContain("import { connectToolset, textOf } from '@toolsets/testing';");
    expect(spec).toContain("it('returns a ToolError for a blank text'");
  });

  it('adds a tool that reads each --credentialHeader through RequestContext', async () => {
    await toolsetGenerator(tree, { name: 'billing', credentialHeader: ['X-Billing-Key', 'x-tenant'], skipInstall: true });
    const toolset = tree.read('libs/toolsets/billing/src/lib/billing.toolset.ts', 'utf-8')!;
    expect(toolset).toContain("export const CREDENTIAL_HEADERS = ['x-billing-key', 'x-tenant'];");
    expect(toolset).toContain('credentialHeaders: CREDENTIAL_HEADERS,');
    expect(toolset).toContain('constructor(private readonly context: RequestContext) {}');
    expect(toolset).toContain("name: 'billing_check_access'");
    expect(tree.exists('libs/toolsets/billing/src/lib/access.dto.ts')).toBe(true);
    expect(tree.read('libs/toolsets/billing/test/billing.toolset.spec.ts', 'utf-8')).toContain("'x-billing-key': 'secret-value', 'x-tenant': 'secret-value'");
  });

  it('places the toolset under --directory and adds that folder to the npm workspaces', async () => {
    await toolsetGenerator(tree, { name: 'search', directory: 'packages/toolsets', skipInstall: true });
    expect(readProjectConfiguration(tree, '@toolsets/search').root).toBe('packages/toolsets/search');
    expect(readJson(tree, 'package.json').workspaces).toContain('packages/toolsets/*');
    expect(tree.read('packages/toolsets/search/tsconfig.json', 'utf-8')).toContain('"extends": "../../../tsconfig.base.json"');
  });

  it.each([['Library'], ['my_lib'], ['2fast'], ['double--dash'], ['']])('refuses the name %j, saying it must be kebab-case', async (name) => {
    const before = tree.listChanges().map((change) => change.path);
    await expect(toolsetGenerator(tree, { name, skipInstall: true })).rejects.toThrow('must be kebab-case');
    expect(tree.listChanges().map((change) => change.path)).toEqual(before);
  });

  it('refuses an existing toolset, and writes nothing', async () => {
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
    const before = tree.read('tsconfig.base.json', 'utf-8');
    await expect(toolsetGenerator(tree, { name: 'library', skipInstall: true })).rejects.toThrow(
      'libs/toolsets/library already exists. Choose another toolset name, or add a tool to it with `nx g @toolsets/workspace-plugin:tool library <tool-name>`.',
    );
    expect(tree.read('tsconfig.base.json', 'utf-8')).toBe(before);
  });

  it('refuses a name another project already has', async () => {
    tree.write('apps/library/project.json', JSON.stringify({ name: 'library', root: 'apps/library' }));
    await expect(toolsetGenerator(tree, { name: 'library', skipInstall: true })).rejects.toThrow("The name 'library' is already taken by project 'library'");
  });

  it('refuses a credential header that is not an HTTP header name', async () => {
    await expect(toolsetGenerator(tree, { name: 'ok', credentialHeader: ['x api key'], skipInstall: true })).rejects.toThrow(
      'Credential header "x api key" is not a valid HTTP header name',
    );
  });

  it('adds the package to the npm workspaces and schedules npm install to link it, unless --skipInstall', async () => {
    const install = await toolsetGenerator(tree, { name: 'linked' });
    expect(install).toEqual(expect.any(Function));
    expect(JSON.parse(tree.read('package.json', 'utf-8')!).workspaces).toContain('libs/toolsets/*');
    expect(await toolsetGenerator(tree, { name: 'unlinked', skipInstall: true })).toBeUndefined();
  });
});
