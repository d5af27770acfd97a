import { joinPathFragments, visitNotIgnoredFiles, type Tree } from '@nx/devkit';
import * as ts from 'typescript';

/** Where a `@Toolset` class is declared in a project's sources. */
export interface ToolsetSource {
  file: string;
  className: string;
  /** Offset just before the class's closing brace, where a new member goes. */
  membersEnd: number;
  methodNames: string[];
  sourceFile: ts.SourceFile;
}

/** Finds the `@Toolset` classes under `<root>/src`, in file order. */
export function findToolsetSources(tree: Tree, projectRoot: string): ToolsetSource[] {
  const found: ToolsetSource[] = [];
  visitNotIgnoredFiles(tree, joinPathFragments(projectRoot, 'src'), (file) => {
    if (!file.endsWith('.ts') || file.endsWith('.spec.ts')) return;
    const text = tree.read(file, 'utf-8') ?? '';
    if (!text.includes('@Toolset(')) return;
    const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    for (const statement of sourceFile.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name || !hasToolsetDecorator(statement)) continue;
      found.push({
        file,
        className: statement.name.text,
        membersEnd: statement.getEnd() - 1,
        methodNames: statement.members.filter(ts.isMethodDeclaration).map((m) => m.name.getText(sourceFile)),
        sourceFile,
      });
    }
  });
  return found;
}

function hasToolsetDecorator(node: ts.ClassDeclaration): boolean {
  return (ts.getDecorators(node) ?? []).some(
    (decorator) =>
      ts.isCallExpression(decorator.expression) &&
      ts.isIdentifier(decorator.expression.expression) &&
      decorator.expression.expression.text === 'Toolset',
  );
}

/**
 * Returns `text` with `names` imported from `module`: merged into an existing named import of that
 * module, or as a new import after the last one. Nothing else in the file changes.
 */
export function ensureNamedImports(text: string, module: string, names: readonly string[]): string {
  const sourceFile = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const imports = sourceFile.statements.filter(ts.isImportDeclaration);
  const existing = imports.find(
    (statement) =>
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text === module &&
      statement.importClause?.namedBindings &&
      ts.isNamedImports(statement.importClause.namedBindings) &&
      !statement.importClause.isTypeOnly,
  );
  if (existing) {
    const bindings = existing.importClause!.namedBindings as ts.NamedImports;
    const have = bindings.elements.map((element) => element.getText(sourceFile));
    const missing = names.filter((name) => !bindings.elements.some((element) => element.name.text === name));
    if (missing.length === 0) return text;
    const merged = `{ ${[...have, ...missing].sort((a, b) => a.replace(/^type /, '').localeCompare(b.replace(/^type /, ''))).join(', ')} }`;
    return text.slice(0, bindings.getStart(sourceFile)) + merged + text.slice(bindings.getEnd());
  }
  const line = `import { ${[...names].join(', ')} } from '${module}';\n`;
  const after = imports.length ? imports[imports.length - 1].getEnd() : 0;
  return after === 0 ? line + text : `${text.slice(0, after)}\n${line.trimEnd()}${text.slice(after)}`;
}
