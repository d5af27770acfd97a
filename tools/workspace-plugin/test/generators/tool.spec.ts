import { type Tree } from '@nx/devkit';
import { createWorkspaceTree } from '../support/workspace-tree';
import { toolsetGenerator } from '../../src/generators/toolset/generator';
import { toolGenerator } from '../../src/generators/tool/generator';

describe('tool generator', () => {
  let tree: Tree;
  const toolsetFile = 'libs/toolsets/library/src/lib/library.toolset.ts';

  beforeEach(async () => {
    tree = createWorkspaceTree();
    await toolsetGenerator(tree, { name: 'library', skipInstall: true });
  });

  it('adds a method, DTOs, an export and a spec, leaving the rest of the toolset file as it was', async () => {
    const before = tree.read(toolsetFile, 'utf-8')!;
    await toolGenerator(tree, { toolset: 'library', name: 'find-book', description: 'Find a book by title.' });
    const after = tree.read(toolsetFile, 'utf-8')!;

    // Everything from the decorator to the class's last member is untouched.
    const closing = before.lastIndexOf('}');
    expect(after).toContain(before.slice(before.indexOf('@Toolset'), closing).trimEnd());
    expect(after).toContain("import { EchoArgs, EchoResult } from './echo.dto';\nimport { FindBookArgs, FindBookResult } from './find-book.dto';");
    expect(after).toContain(`  @Tool({
    name: 'library_find_book',
    description: 'Find a book by title.',
    args: FindBookArgs,
    returns: [FindBookResult, ToolError],
  })
  findBook(args: FindBookArgs): FindBookResult | ToolError {`);
    expect(after.trimEnd().endsWith('}')).toBe(true);

    expect(tree.read('libs/toolsets/library/src/lib/find-book.dto.ts', 'utf-8')).toContain('export class FindBookResult extends ToolResult');
    expect(tree.read('libs/toolsets/library/src/index.ts', 'utf-8')).toContain("export { FindBookArgs, FindBookResult } from './lib/find-book.dto';");
    expect(tree.read('libs/toolsets/library/test/find-book.spec.ts', 'utf-8')).toContain("toolset.call('library_find_book', { input: '  something  ' })");
  });

  it('merges Tool and ToolError into an existing @toolsets/core import', async () => {
    tree.write(
      toolsetFile,
      `import { Toolset } from '@toolsets/core';

// A hand-written toolset with a comment that must survive.
@Toolset({ description: 'x' })
export class LibraryToolset {
  private readonly shelves = 3;
}
`,
    );
    await toolGenerator(tree, { toolset: '@toolsets/library', name: 'count', description: 'Count the shelves.' });
    const after = tree.read(toolsetFile, 'utf-8')!;
    expect(after).toContain("import { Tool, ToolError, Toolset } from '@toolsets/core';");
    expect(after).toContain('// A hand-written toolset with a comment that must survive.');
    expect(after).toContain('  private readonly shelves = 3;\n\n  @Tool({');
    expect(after).toContain("name: 'library_count',\n    description: 'Count the shelves.',");
  });

  it('refuses a tool without a description, saying why models need one, and writes nothing', async () => {
    const before = tree.read(toolsetFile, 'utf-8');
    for (const description of [undefined, '  ']) {
      await expect(toolGenerator(tree, { toolset: 'library', name: 'count', description })).rejects.toThrow(
        'A tool needs --description: say what it does and when a model should use it (models choose tools by it)',
      );
    }
    expect(tree.read(toolsetFile, 'utf-8')).toBe(before);
    expect(tree.exists('libs/toolsets/library/src/lib/count.dto.ts')).toBe(false);
  });

  it('refuses an unknown toolset, listing the toolsets there are', async () => {
    await expect(toolGenerator(tree, { toolset: 'nope', name: 'x', description: 'x' })).rejects.toThrow("No toolset named 'nope'. Toolsets in this workspace: library.");
  });

  it('refuses a tool whose method already exists, and writes nothing', async () => {
    await toolGenerator(tree, { toolset: 'library', name: 'find-book', description: 'Find a book.' });
    const before = tree.read(toolsetFile, 'utf-8');
    await expect(toolGenerator(tree, { toolset: 'library', name: 'find-book', description: 'Again.' })).rejects.toThrow("LibraryToolset already has a method 'findBook'");
    expect(tree.read(toolsetFile, 'utf-8')).toBe(before);
  });

  it('refuses a name that is not kebab-case', async () => {
    await expect(toolGenerator(tree, { toolset: 'library', name: 'FindBook', description: 'x' })).rejects.toThrow("Tool name \"FindBook\" must be kebab-case");
  });
});
