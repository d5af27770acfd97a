import { formatFiles, generateFiles, joinPathFragments, names, type Tree } from '@nx/devkit';
import { join } from 'node:path';
import { assertKebabCase, snakeCase } from '../../utils/naming';
import { ensureNamedImports, findToolsetSources } from '../../utils/toolset-source';
import { findToolsetProject } from '../../utils/workspace';
import type { ToolGeneratorSchema } from './schema';
import { tsString } from '@toolsets/core/ts-literal';

/**
 * Adds one tool to a toolset: the method goes in just before the class's closing brace and the
 * imports are merged, so the rest of the file stays exactly as it was.
 */
export async function toolGenerator(tree: Tree, options: ToolGeneratorSchema): Promise<void> {
  assertKebabCase('Tool', options.name);
  const description = options.description?.trim();
  if (!description) {
    throw new Error(
      'A tool needs --description: say what it does and when a model should use it (models choose tools by it), e.g. --description="Find a book by its title.".',
    );
  }
  const project = findToolsetProject(tree, options.toolset);
  const [source, ...others] = findToolsetSources(tree, project.root);
  if (!source) throw new Error(`Toolset '${project.name}' has no @Toolset class under ${project.root}/src.`);
  if (others.length > 0) {
    throw new Error(`Toolset '${project.name}' declares several @Toolset classes (${[source, ...others].map((s) => s.className).join(', ')}); add the tool by hand.`);
  }
  const tool = names(options.name);
  // Generated tools are named <toolset>_<tool>, like the toolset generator's, so toolsets can share a server.
  const toolName = `${snakeCase(project.name.replace(/^@toolsets\//, ''))}_${snakeCase(options.name)}`;
  const dtoFile = joinPathFragments(project.root, 'src/lib', `${tool.fileName}.dto.ts`);
  if (source.methodNames.includes(tool.propertyName)) {
    throw new Error(`${source.className} already has a method '${tool.propertyName}'. Choose another tool name.`);
  }
  if (tree.exists(dtoFile)) throw new Error(`${dtoFile} already exists. Choose another tool name.`);

  const substitutions = { ...tool, toolName, description, toolsetClass: source.className, tmpl: '' };
  generateFiles(tree, join(__dirname, 'files'), project.root, substitutions);

  const original = tree.read(source.file, 'utf-8')!;
  const method = renderMethod(substitutions);
  let updated = original.slice(0, source.membersEnd).replace(/\s*$/, '\n') + method + original.slice(source.membersEnd);
  updated = ensureNamedImports(updated, '@toolsets/core', ['Tool', 'ToolError']);
  updated = ensureNamedImports(updated, `./${tool.fileName}.dto`, [`${tool.className}Args`, `${tool.className}Result`]);
  tree.write(source.file, updated);

  const index = joinPathFragments(project.root, 'src/index.ts');
  const exportLine = `export { ${tool.className}Args, ${tool.className}Result } from './lib/${tool.fileName}.dto';\n`;
  const indexText = tree.read(index, 'utf-8') ?? '';
  tree.write(index, indexText.endsWith('\n') || indexText === '' ? indexText + exportLine : `${indexText}\n${exportLine}`);
  await formatFiles(tree);
}

function renderMethod(t: { className: string; propertyName: string; toolName: string; description: string }): string {
  return `
  @Tool({
    name: ${tsString(t.toolName)},
    description: ${tsString(t.description)},
    args: ${t.className}Args,
    returns: [${t.className}Result, ToolError],
  })
  ${t.propertyName}(args: ${t.className}Args): ${t.className}Result | ToolError {
    const input = args.input.trim();
    if (input === '') {
      return new ToolError('invalid_input', 'The input is blank. Send the text the tool should work on.');
    }
    return { message: \`${t.toolName} received "\${input}".\`, input };
  }
`;
}

export default toolGenerator;
