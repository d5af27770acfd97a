import { readJson, readProjectConfiguration, type Tree } from '@nx/devkit';
import { createWorkspaceTree } from '../support/workspace-tree';
import { toolsetGenerator } from '../../src/generators/toolset/generator';
import { viewGenerator } from '../../src/generators/view/generator';

describe('view generator', () => {
  let tree: Tree;
  const root = 'libs/toolsets/library';
  const toolsetFile = `${root}/src/lib/library.toolset.ts`;

  beforeEach(async () => {
    tree = createWorkspaceTree();
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
  });

  it('adds the page, its script, a defineView constant and its export, and links it to the tool given', async () => {
    const before = tree.read(toolsetFile, 'utf-8')!;
    await viewGenerator(tree, { toolset: 'library', name: 'shelf', tool: 'echo', description: 'The shelf as cards.', skipInstall: true });
    expect(tree.read(`${root}/views/shelf/index.html`, 'utf-8')).toContain('<script type="module" src="./main.ts"></script>');
    const script = tree.read(`${root}/views/shelf/main.ts`, 'utf-8')!;
    expect(script).toContain("import { App } from '@modelcontextprotocol/ext-apps';");
    // Typed by the tool's own result class, imported from where the toolset imports it.
    expect(script).toContain("import type { EchoResult } from '../../src/lib/echo.dto';");
    expect(script).toContain('type Shown = EchoResult;');
    expect(script).toContain('app.ontoolresult = ');
    const constant = tree.read(`${root}/src/lib/shelf.view.ts`, 'utf-8')!;
    expect(constant).toContain("export const ShelfView = defineView({\n  uri: 'ui://library/shelf',\n  description: 'The shelf as cards.',\n  bundle: viewBundle(__dirname, 'shelf'),");
    expect(tree.read(`${root}/src/index.ts`, 'utf-8')).toContain("export { ShelfView } from './lib/shelf.view';");
    const after = tree.read(toolsetFile, 'utf-8')!;
    expect(after).toContain("import { ShelfView } from './shelf.view';");
    expect(after).toMatch(/@Tool\(\{\n\s+view: ShelfView,\n/);
    // Nothing else in the toolset file moved.
    expect(after.replace("import { ShelfView } from './shelf.view';\n", '').replace(/\n\s+view: ShelfView,/, '')).toBe(before);
  });

  it('types a view without --tool by ToolResult, and one whose tool returns a class of its own file by that file', async () => {
    await viewGenerator(tree, { toolset: 'library', name: 'plain', skipInstall: true });
    expect(tree.read(`${root}/views/plain/main.ts`, 'utf-8')).toContain("import type { ToolResult } from '@toolsets/core';");
    tree.write(toolsetFile, tree.read(toolsetFile, 'utf-8')!.replace('returns: [EchoResult, ToolError]', 'returns: [LocalResult, ToolError]') + '\nexport class LocalResult { message!: string; }\n');
    await viewGenerator(tree, { toolset: 'library', name: 'local', tool: 'echo', skipInstall: true });
    expect(tree.read(`${root}/views/local/main.ts`, 'utf-8')).toContain("import type { LocalResult } from '../../src/lib/library.toolset';");
  });

  it('bundles views after the build, tests after the build, and typechecks the views with the DOM types', async () => {
    tree.write('tools/typecheck/tsc.cjs', '');
    await viewGenerator(tree, { toolset: 'library', name: 'shelf', skipInstall: true });
    const project = readProjectConfiguration(tree, '@toolsets/library');
    expect(project.targets?.['build']?.options.command).toBe(`node tools/build/build-project.cjs ${root}/src ${root}/dist && node tools/build/build-views.cjs ${root}`);
    expect(project.targets?.['typecheck']?.options.command).toMatch(/tsconfig\.spec\.json && tsc -p libs\/toolsets\/library\/tsconfig\.views\.json$/);
    expect(project.targets?.['test']?.dependsOn).toEqual(['build']);
    expect(readJson(tree, `${root}/tsconfig.views.json`)).toEqual({
      extends: './tsconfig.json',
      compilerOptions: { noEmit: true, lib: ['ES2023', 'DOM', 'DOM.Iterable'], module: 'preserve', moduleResolution: 'bundler' },
      include: ['views/**/*.ts'],
    });
    expect(tree.read('tools/build/build-views.cjs', 'utf-8')).toContain('vite-plugin-singlefile');
    const devDependencies = readJson(tree, 'package.json').devDependencies;
    for (const name of ['@modelcontextprotocol/ext-apps', 'vite', 'vite-plugin-singlefile']) expect(devDependencies[name]).toMatch(/^\^?\d/);

    // A second view leaves the build, the typecheck and the test wiring as they are.
    await viewGenerator(tree, { toolset: 'library', name: 'ledger', skipInstall: true });
    const again = readProjectConfiguration(tree, '@toolsets/library');
    expect(again.targets?.['build']?.options.command).toBe(project.targets?.['build']?.options.command);
    expect(again.targets?.['typecheck']?.options.command).toBe(project.targets?.['typecheck']?.options.command);
    expect(again.targets?.['test']?.dependsOn).toEqual(['build']);
  });

  it('refuses a name that is not kebab-case, an existing view, and a tool the toolset does not have', async () => {
    await expect(viewGenerator(tree, { toolset: 'library', name: 'Shelf', skipInstall: true })).rejects.toThrow(/kebab-case/);
    await viewGenerator(tree, { toolset: 'library', name: 'shelf', skipInstall: true });
    await expect(viewGenerator(tree, { toolset: 'library', name: 'shelf', skipInstall: true })).rejects.toThrow(`${root}/views/shelf already exists. Choose another view name.`);
    await expect(viewGenerator(tree, { toolset: 'library', name: 'cards', tool: 'findBook', skipInstall: true })).rejects.toThrow(
      `No toolset method 'findBook' under ${root}/src; --tool takes the method's name: echo`,
    );
  });
});
