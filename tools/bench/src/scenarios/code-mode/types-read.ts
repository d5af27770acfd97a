import ts from 'typescript';
import type { ServerDefinition } from '@toolsets/core';
import { CodeMode, declaredTool } from '@toolsets/code-mode';

const OPTIONS: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [] };
const DECLARATIONS = '/api.d.ts';
const PROGRAM = '/program.ts';

/** `program` checked beside `declarations` as the checker sees it: TypeScript's checker, the program's source, and whether a declaration is one of `api`'s. */
function checkedProgram(program: string, declarations: string) {
  const files = new Map([
    [DECLARATIONS, declarations],
    [PROGRAM, `async function __program() {\n${program}\n}\nexport {};\n`],
  ]);
  const host = ts.createCompilerHost(OPTIONS);
  const readLibrary = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) => (files.has(name) ? ts.createSourceFile(name, files.get(name)!, version) : readLibrary(name, version));
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => files.get(name) ?? ts.sys.readFile(name);
  const built = ts.createProgram([DECLARATIONS, PROGRAM], OPTIONS, host);
  return { checker: built.getTypeChecker(), source: built.getSourceFile(PROGRAM)!, inApi: (node: ts.Node) => node.getSourceFile().fileName === DECLARATIONS };
}

/**
 * The declared types whose fields a program reads (`api.<namespace>.<Type>` as `namespace.Type`):
 * what a model must have seen written out to write it. Read with TypeScript over the same
 * declarations the checker uses: every property access, element access and destructuring whose
 * object is of a named type of `api` (each member of a union too), and every object literal written
 * where one is expected (the arguments of a call and their parts). Anonymous object types inside a
 * named type count as that type, which must be written out to show them.
 */
export function typesReadBy(program: string, declarations: string): Set<string> {
  const { checker, source, inApi } = checkedProgram(program, declarations);
  const read = new Set<string>();
  const record = (type: ts.Type): void => {
    if (type.isUnion() || type.isIntersection()) return type.types.forEach(record);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return;
    if (!symbol.declarations?.some(inApi)) return;
    read.add(checker.getFullyQualifiedName(symbol).replace(/^api\./, ''));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) record(checker.getNonNullableType(checker.getTypeAtLocation(node.expression)));
    if (ts.isObjectBindingPattern(node)) record(checker.getNonNullableType(checker.getTypeAtLocation(node)));
    // What a program writes counts as what it reads: an object literal passed where a named type is expected (a request body's parts).
    if (ts.isObjectLiteralExpression(node)) {
      const expected = checker.getContextualType(node);
      if (expected) record(checker.getNonNullableType(expected));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return read;
}

/**
 * The least any `describe` could answer for a model to write `program`, found with TypeScript over
 * it: the signature of each function it calls; each property of `api`'s types it reads or writes,
 * and each required argument, as `name: type;` (an inline object's type as `{…}`, its own
 * properties counted where touched); a line opening and closing each type it touches; and, apart,
 * the names of the touched types' other fields, which a model picks the ones it needs from. No
 * JSDoc, no ToolCallError, no framing: a floor for what describe's bytes could come down to, set
 * beside what it answers.
 */
export function leastDeclarations(program: string, declarations: string): { declarations: number; otherFields: number } {
  const { checker, source, inApi } = checkedProgram(program, declarations);
  const properties = new Set<ts.PropertySignature>();
  const functions = new Set<ts.FunctionDeclaration>();
  const touch = (symbol: ts.Symbol | undefined): void => {
    for (const declaration of symbol?.declarations ?? []) if (ts.isPropertySignature(declaration) && inApi(declaration)) properties.add(declaration);
  };
  /** A property of `type` (each member of a union) by name. */
  const touchIn = (type: ts.Type, name: string): void => {
    const nonNull = checker.getNonNullableType(type);
    for (const member of nonNull.isUnion() ? nonNull.types : [nonNull]) touch(member.getProperty(name));
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const symbol = checker.getSymbolAtLocation(node.name);
      const called = symbol?.declarations?.find((declaration): declaration is ts.FunctionDeclaration => ts.isFunctionDeclaration(declaration) && inApi(declaration));
      if (called) functions.add(called);
      else touchIn(checker.getTypeAtLocation(node.expression), node.name.text);
    }
    if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name)) touchIn(checker.getTypeAtLocation(node.parent), name.text);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const expected = checker.getContextualType(node);
      if (expected)
        for (const property of node.properties) {
          if (ts.isSpreadAssignment(property)) for (const spread of checker.getTypeAtLocation(property.expression).getProperties()) touchIn(expected, spread.name);
          else if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) touchIn(expected, property.name.text);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const plain = (text: string) => text.replace(/\/\*\*[\s\S]*?\*\/\s*/g, '').replace(/\s+/g, ' ').trim();
  let bytes = 0;
  for (const fn of functions) {
    bytes += plain(fn.getText()).length + 1;
    const args = fn.parameters[0] && checker.getTypeAtLocation(fn.parameters[0]);
    for (const argument of args?.getProperties() ?? []) if (!(argument.flags & ts.SymbolFlags.Optional)) touch(argument);
  }
  const types = new Set<ts.Node>();
  for (const property of properties) {
    const type = property.type;
    const inline = type && (ts.isTypeLiteralNode(type) || (ts.isArrayTypeNode(type) && ts.isTypeLiteralNode(type.elementType)) || (ts.isUnionTypeNode(type) && type.types.some(ts.isTypeLiteralNode)));
    bytes += `${property.name.getText()}${property.questionToken ? '?' : ''}: ${inline ? '{…}' : plain(type?.getText() ?? 'unknown')};`.length + 1;
    types.add(property.parent);
  }
  let otherFields = 0;
  for (const type of types) {
    const owner = ts.isInterfaceDeclaration(type) ? type : ts.isTypeAliasDeclaration(type.parent) ? type.parent : undefined;
    bytes += owner ? `interface ${owner.name.text} {}`.length + 2 : 4;
    for (const member of (type as ts.InterfaceDeclaration | ts.TypeLiteralNode).members) if (member.name && !properties.has(member as ts.PropertySignature)) otherFields += member.name.getText().length + 2;
  }
  return { declarations: bytes, otherFields };
}

/** The named types a describe answer writes out, and those it names without writing them, as `namespace.Type`. */
export function typesShown(declarations: string): { written: Set<string>; named: Set<string> } {
  const written = new Set<string>();
  const named = new Set<string>();
  let namespace = '';
  for (const line of declarations.split('\n')) {
    const opened = /^declare namespace api\.([\w$]+) \{/.exec(line);
    if (opened) namespace = opened[1]!;
    const declared = /^ {1,2}(?:interface|type) ([\w$]+)/.exec(line);
    if (declared) written.add(`${namespace}.${declared[1]}`);
    const left = /^ {1,2}\/\/ Not written out here \(describe them by name\): (.*)\.$/.exec(line);
    if (left) for (const name of left[1]!.split(', ')) named.add(`${namespace}.${name}`);
  }
  return { written, named };
}

/** A `describe` call: the names asked for, and the answer's structuredContent. */
export type Describe = (names: readonly string[]) => Promise<{ declarations?: string } | undefined>;

/**
 * What a model reads to write `program`: one `describe` of `names`, then, round by round, a
 * `describe` of each type the program reads (or writes) that the answers so far named without
 * writing out. Returns the bytes of every answer (structuredContent), the further calls made, and
 * the types the program reads that no answer wrote.
 */
export async function describeForProgram(describe: Describe, names: readonly string[], program: string, declarations: string): Promise<{ bytes: number; more: number; unseen: string[] }> {
  const first = await describe(names);
  let bytes = Buffer.byteLength(JSON.stringify(first ?? null));
  const read = typesReadBy(program, declarations);
  const shown = typesShown(first?.declarations ?? '');
  let more = 0;
  for (let round = 0; round < 5; round++) {
    const missing = [...read].filter((name) => !shown.written.has(name) && shown.named.has(name));
    if (missing.length === 0) break;
    const answer = await describe(missing);
    bytes += Buffer.byteLength(JSON.stringify(answer ?? null));
    more += 1;
    const next = typesShown(answer?.declarations ?? '');
    next.written.forEach((name) => shown.written.add(name));
    next.named.forEach((name) => shown.named.add(name));
  }
  return { bytes, more, unseen: [...read].filter((name) => !shown.written.has(name)) };
}

/** `describe` through a client in code mode. */
export const describe =
  (client: { call(name: string, args: Record<string, unknown>): Promise<{ structuredContent?: unknown }> }): Describe =>
  async (names) =>
    (await client.call('describe', { names: [...names] })).structuredContent as { declarations?: string } | undefined;

/** The declarations a server's programs are checked against (every tool callable in code mode), for `typesReadBy`. */
export const checkedDeclarations = (server: ServerDefinition): string => new CodeMode([...server.catalog.tools.values()].map(declaredTool), undefined as never).text;
