import ts from 'typescript';
import type { ServerDefinition } from '@toolsets/core';
import { CodeMode, declaredTool } from '@toolsets/code-mode';

const OPTIONS: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], types: [] };
const DECLARATIONS = '/api.d.ts';
const PROGRAM = '/program.ts';

/**
 * The declared types whose fields a program reads (`api.<namespace>.<Type>` as `namespace.Type`):
 * what a model must have seen written out to write it. Read with TypeScript over the same
 * declarations the checker uses: every property access, element access and destructuring whose
 * object is of a named type of `api` (each member of a union too), and every object literal written
 * where one is expected (the arguments of a call and their parts). Anonymous object types inside a
 * named type count as that type, which must be written out to show them.
 */
export function typesReadBy(program: string, declarations: string): Set<string> {
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
  const checker = built.getTypeChecker();
  const read = new Set<string>();
  const record = (type: ts.Type): void => {
    if (type.isUnion() || type.isIntersection()) return type.types.forEach(record);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias))) return;
    if (!symbol.declarations?.some((declaration) => declaration.getSourceFile().fileName === DECLARATIONS)) return;
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
  visit(built.getSourceFile(PROGRAM)!);
  return read;
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
