import type * as TypeScript from 'typescript';
import type { TypeProblem } from './type-problem';

export type { TypeProblem } from './type-problem';

export type CheckedProgram = { ok: true; javascript: string } | { ok: false; problems: TypeProblem[] };

const DECLARATIONS = '/api.d.ts';
const PROGRAM = '/program.ts';
/** What the program's own text is wrapped in, so `return` and `await` are allowed at its top level. */
const HEAD = 'async function __program() {\n';
const TAIL = '\n}\n';
/** The host globals a program has besides `api`: `console` (captured). */
const GLOBALS = `declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void; debug(...values: unknown[]): void };\n`;

let loaded: typeof TypeScript | undefined;

/**
 * The compiler (9 MB of JavaScript, about 0.2 CPU-seconds to load) is loaded by the first checker,
 * on a sandbox worker: a server that imports code mode never loads it on its own thread.
 */
function typescript(): typeof TypeScript {
  return (loaded ??= require('typescript') as typeof TypeScript);
}

function compilerOptions(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    noUnusedLocals: false,
    skipDefaultLibCheck: true,
  };
}

/** The standard library's parsed files, shared by every checker of the thread (they never change). */
const LIBRARIES = new Map<string, TypeScript.SourceFile>();

/**
 * Type-checks model programs against a catalog's declarations with the TypeScript compiler. It runs
 * on a sandbox worker (`QuickJsSandbox.run` with a check), never on the server's thread: a few hundred
 * bytes of recursive types can take the compiler seconds and gigabytes, and there the worker's
 * time and heap limits end it. The standard library's files are parsed once and kept, and each
 * check reuses the last program that passed (TypeScript's `oldProgram`; a failed one is never the
 * next check's starting state), so a check costs the program's own text. A program that checks
 * is transpiled to the JavaScript the sandbox runs.
 */
export class ProgramChecker {
  private readonly libraries = LIBRARIES;
  private readonly ts = typescript();
  private readonly options = compilerOptions(this.ts);
  private readonly declarations: TypeScript.SourceFile;
  private previous?: TypeScript.Program;
  /** The program being checked, which the host hands the compiler as PROGRAM. */
  private current?: TypeScript.SourceFile;
  private declarationProblems?: readonly TypeScript.Diagnostic[];
  private readonly host: TypeScript.CompilerHost;

  constructor(declarations: string) {
    const ts = this.ts;
    this.declarations = ts.createSourceFile(DECLARATIONS, GLOBALS + declarations, ts.ScriptTarget.ES2022, true);
    const base = ts.createCompilerHost(this.options, true);
    this.host = { ...base, getSourceFile: (name, version) => this.sourceFile(base, name, version), writeFile: () => undefined };
  }

  check(program: string): CheckedProgram {
    const ts = this.ts;
    const text = HEAD + program + TAIL;
    const source = ts.createSourceFile(PROGRAM, text, ts.ScriptTarget.ES2022, true);
    this.current = source;
    const checked = ts.createProgram({ rootNames: [DECLARATIONS, PROGRAM], options: this.options, host: this.host, oldProgram: this.previous });
    // The declarations are checked once, with the first program (a problem there is the server's, and stays); each
    // program after that costs only its own check, which resolves just the declarations it uses.
    this.declarationProblems ??= checked.getSemanticDiagnostics(this.declarations);
    const diagnostics = [...checked.getSyntacticDiagnostics(source), ...checked.getSemanticDiagnostics(source), ...this.declarationProblems];
    if (diagnostics.length > 0) return { ok: false, problems: diagnostics.map((diagnostic) => problemOf(ts, diagnostic)) };
    this.previous = checked;
    const javascript = ts.transpileModule(text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: true }, reportDiagnostics: false }).outputText;
    return { ok: true, javascript: `${javascript}\nreturn await __program();` };
  }

  private sourceFile(base: TypeScript.CompilerHost, name: string, version: TypeScript.ScriptTarget | TypeScript.CreateSourceFileOptions): TypeScript.SourceFile | undefined {
    if (name === PROGRAM) return this.current;
    if (name === DECLARATIONS) return this.declarations;
    let library = this.libraries.get(name);
    if (!library) {
      library = base.getSourceFile(name, version);
      if (library) this.libraries.set(name, library);
    }
    return library;
  }
}

function problemOf(ts: typeof TypeScript, diagnostic: TypeScript.Diagnostic): TypeProblem {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const code = `TS${diagnostic.code}`;
  if (!diagnostic.file || diagnostic.start === undefined) return { line: 0, column: 0, message, code };
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  // The wrapper's first line comes before the program's; a problem in the declarations is the server's, at line 0.
  return diagnostic.file.fileName === PROGRAM ? { line: line, column: character + 1, message, code } : { line: 0, column: 0, message: `In the declarations: ${message}`, code };
}
