import { addDependenciesToPackageJson, formatFiles, generateFiles, installPackagesTask, joinPathFragments, names, updateJson, type GeneratorCallback, type Tree } from '@nx/devkit';
import { join, posix } from 'node:path';
import * as ts from 'typescript';
import { assertKebabCase } from '../../utils/naming';
import { knownVersions, pluginFile } from '../../utils/plugin-files';
import { tsString } from '@toolsets/core/ts-literal';
import { ensureNamedImports, findToolsetSources, type ToolsetSource } from '../../utils/toolset-source';
import { findToolsetProject } from '../../utils/workspace';
import type { ViewGeneratorSchema } from './schema';

/** What a view needs to build and run: the MCP Apps SDK (the `App` bridge), Vite and its single-file plugin. */
const VIEW_PACKAGES = ['@modelcontextprotocol/ext-apps', 'vite', 'vite-plugin-singlefile'];
const BUILD_SCRIPT = 'tools/build/build-views.cjs';

/**
 * Adds an MCP Apps view to a toolset library: views/<name>/index.html and main.ts (the `App`
 * bridge, typed by a result DTO), a `defineView` constant in src/lib/<name>.view.ts, the library's
 * build extended to bundle views into dist/views/<name>.html, a typecheck of the view's code with
 * the DOM's types, and with `--tool`, `view:` on that tool's @Tool.
 */
export async function viewGenerator(tree: Tree, options: ViewGeneratorSchema): Promise<GeneratorCallback | undefined> {
  assertKebabCase('View', options.name);
  const project = findToolsetProject(tree, options.toolset);
  const view = names(options.name);
  const folder = joinPathFragments(project.root, 'views', view.fileName);
  if (tree.exists(folder)) throw new Error(`${folder} already exists. Choose another view name.`);
  const toolsetName = project.name.replace(/^@[^/]+\//, '');
  const description = options.description?.trim() || `The ${view.name.replace(/-/g, ' ')} view of the ${toolsetName} toolset.`;
  const tool = options.tool ? findTool(tree, project.root, options.tool, view.className) : undefined;
  const result = tool ? resultTypeOf(tool, joinPathFragments(folder, 'main.ts')) : undefined;
  generateFiles(tree, join(__dirname, 'files'), project.root, { ...view, toolsetName, description, tsString, result, tmpl: '' });

  const index = joinPathFragments(project.root, 'src/index.ts');
  const exportLine = `export { ${view.className}View } from './lib/${view.fileName}.view';\n`;
  const indexText = tree.read(index, 'utf-8') ?? '';
  tree.write(index, indexText === '' || indexText.endsWith('\n') ? indexText + exportLine : `${indexText}\n${exportLine}`);
  if (tool) linkTool(tree, tool, view.className, view.fileName);

  wireBuild(tree, project.root);
  if (!tree.exists(BUILD_SCRIPT)) tree.write(BUILD_SCRIPT, pluginFile(__dirname, 'build/build-views.cjs'));
  const installing = addViewPackages(tree);
  await formatFiles(tree);
  return installing && !options.skipInstall ? () => installPackagesTask(tree, true) : undefined;
}

/** The library's build bundles its views after compiling, its tests run after its build, its typecheck checks the views with the DOM's types. */
function wireBuild(tree: Tree, root: string): void {
  const tsconfig = joinPathFragments(root, 'tsconfig.views.json');
  if (!tree.exists(tsconfig)) {
    tree.write(
      tsconfig,
      JSON.stringify(
        {
          extends: './tsconfig.json',
          compilerOptions: { noEmit: true, lib: ['ES2023', 'DOM', 'DOM.Iterable'], module: 'preserve', moduleResolution: 'bundler' },
          include: ['views/**/*.ts'],
        },
        null,
        2,
      ),
    );
  }
  updateJson(tree, joinPathFragments(root, 'project.json'), (json) => {
    const build = json.targets?.build?.options;
    if (build?.command && !build.command.includes('build-views.cjs')) build.command = `${build.command} && node ${BUILD_SCRIPT} ${root}`;
    const typecheck = json.targets?.typecheck?.options;
    if (typecheck?.command && !typecheck.command.includes('tsconfig.views.json')) {
      typecheck.command = typecheck.command.includes('tools/typecheck/tsc.cjs') ? `${typecheck.command} ${tsconfig}` : `${typecheck.command} && tsc -p ${tsconfig}`;
    }
    // The library's tests build its servers, whose gate reads the built views.
    json.targets ??= {};
    json.targets.test ??= {};
    const dependsOn: string[] = json.targets.test.dependsOn ?? [];
    if (!dependsOn.includes('build')) json.targets.test.dependsOn = [...dependsOn, 'build'];
    return json;
  });
}

/** Adds the view packages the workspace lacks to its devDependencies; true when any was added. */
function addViewPackages(tree: Tree): boolean {
  const pkg = JSON.parse(tree.read('package.json', 'utf-8') ?? '{}') as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const missing = VIEW_PACKAGES.filter((name) => !pkg.dependencies?.[name] && !pkg.devDependencies?.[name]);
  if (missing.length === 0) return false;
  const versions = knownVersions(__dirname);
  addDependenciesToPackageJson(tree, {}, Object.fromEntries(missing.map((name) => [name, versions[name] ?? 'latest'])), undefined, true);
  return true;
}

/** A tool method of the library and its `@Tool({ … })` options. */
interface FoundTool {
  source: ToolsetSource;
  method: string;
  options: ts.ObjectLiteralExpression;
}

function findTool(tree: Tree, root: string, method: string, className: string): FoundTool {
  const sources = findToolsetSources(tree, root);
  const source = sources.find((candidate) => candidate.methodNames.includes(method));
  if (!source) {
    const known = sources.flatMap((candidate) => candidate.methodNames);
    throw new Error(`No toolset method '${method}' under ${root}/src; --tool takes the method's name: ${known.join(', ') || '(none found)'}.`);
  }
  const methodNode = findMethod(source.sourceFile, method);
  const decorator = (ts.getDecorators(methodNode!) ?? []).find((candidate) => ts.isCallExpression(candidate.expression) && ts.isIdentifier(candidate.expression.expression) && candidate.expression.expression.text === 'Tool');
  const options = decorator && ts.isCallExpression(decorator.expression) ? decorator.expression.arguments[0] : undefined;
  if (!options || !ts.isObjectLiteralExpression(options)) throw new Error(`${source.className}.${method}() has no @Tool({ … }) to link the view to; add \`view: ${className}View\` to its options by hand.`);
  if (options.properties.some((property) => property.name?.getText(source.sourceFile) === 'view')) {
    throw new Error(`${source.className}.${method}() already has a view; change its \`view:\` by hand.`);
  }
  return { source, method, options };
}

/**
 * The tool's result class (`returns: X` or the class beside `ToolError` in `returns: [X, ToolError]`)
 * and where `main` imports its type from: the module the toolset file imports it from, or the
 * toolset file itself. Undefined when `returns` names no class this way (the view then takes `ToolResult`).
 */
function resultTypeOf(tool: FoundTool, main: string): { className: string; from: string } | undefined {
  const { sourceFile, file } = tool.source;
  const returns = tool.options.properties.find((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && property.name.getText(sourceFile) === 'returns');
  const named = !returns ? [] : ts.isArrayLiteralExpression(returns.initializer) ? returns.initializer.elements : [returns.initializer];
  const className = named.flatMap((element) => (ts.isIdentifier(element) && element.text !== 'ToolError' ? [element.text] : []))[0];
  if (!className) return undefined;
  const imported = sourceFile.statements.filter(ts.isImportDeclaration).find((declaration) => {
    const bindings = declaration.importClause?.namedBindings;
    return bindings && ts.isNamedImports(bindings) && bindings.elements.some((element) => element.name.text === className);
  });
  const specifier = imported && ts.isStringLiteral(imported.moduleSpecifier) ? imported.moduleSpecifier.text : undefined;
  // A package's name stays as written; a relative module, or the toolset file itself, is re-pointed from the view's folder.
  if (specifier && !specifier.startsWith('.')) return { className, from: specifier };
  const target = specifier ? posix.join(posix.dirname(file), specifier) : file.replace(/\.ts$/, '');
  const relative = posix.relative(posix.dirname(main), target);
  return { className, from: relative.startsWith('.') ? relative : `./${relative}` };
}

/** Adds `view: <Name>View` to the tool's @Tool options, and the import. */
function linkTool(tree: Tree, tool: FoundTool, className: string, fileName: string): void {
  const text = tree.read(tool.source.file, 'utf-8')!;
  const at = tool.options.getStart(tool.source.sourceFile) + 1;
  let updated = `${text.slice(0, at)}\n    view: ${className}View,${text.slice(at)}`;
  updated = ensureNamedImports(updated, `./${fileName}.view`, [`${className}View`]);
  tree.write(tool.source.file, updated);
}

function findMethod(sourceFile: ts.SourceFile, method: string): ts.MethodDeclaration | undefined {
  let found: ts.MethodDeclaration | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isMethodDeclaration(node) && node.name.getText(sourceFile) === method) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

export default viewGenerator;
