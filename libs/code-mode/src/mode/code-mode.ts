import { createHash } from 'node:crypto';
import { catalogDeclarations, identifier, type CatalogDeclarations, type DeclaredTool } from '../declarations/catalog-declarations';
import { declarationOutline } from '../declarations/declaration-outline';
import type { RunOptions, Sandbox } from '../sandbox/sandbox';
import type { SandboxLimits } from '../sandbox/sandbox-limits';
import type { ProgramCheck } from '../sandbox/sandbox-messages';
import type { InnerCallAnswer, RunFailure, SandboxOutcome } from '../sandbox/sandbox-outcome';
import type { TypeProblem } from '../typecheck/type-problem';
import { asAnswered } from '../declarations/as-answered';

/** A tool as programs are checked against it: its results as the API answers them (`asAnswered`). */
const answered = (tool: DeclaredTool): DeclaredTool => (tool.outputSchema ? { ...tool, outputSchema: asAnswered(tool.outputSchema) } : tool);

/** Runs one inner call for the caller the catalog belongs to: the same path as its `tools/call`. */
export type InnerCallDispatch = (tool: DeclaredTool, args: unknown, signal: AbortSignal) => Promise<InnerCallAnswer>;

/** What `execute` answers: the program's value with its logs, or why nothing ran (type problems), or how the run ended. */
export type Execution =
  | { ok: true; value: unknown; logs: string[]; logsTruncated: boolean; calls: number }
  | { ok: false; stage: 'typecheck'; problems: TypeProblem[] }
  | { ok: false; stage: 'run'; failure: RunFailure; logs: string[]; logsTruncated: boolean; calls: number };

/**
 * Code mode over one caller's view of a catalog: `describe` writes the declarations of the tools
 * asked for, `execute` type-checks a program against the declarations of every tool the caller
 * may call and runs it in the sandbox, each inner call going to the caller's `dispatch`. The
 * declarations are built once per view and kept; the check runs on the sandbox's worker, which
 * keeps a checker per declarations digest.
 */
export class CodeMode {
  private readonly declarations: CatalogDeclarations;
  /** The tools with their results as the API answers them, made once: `describe` declares from them too. */
  private readonly tools: readonly DeclaredTool[];
  private check?: ProgramCheck;

  constructor(
    tools: readonly DeclaredTool[],
    private readonly sandbox: Sandbox,
  ) {
    this.tools = tools.map(answered);
    this.declarations = catalogDeclarations(this.tools);
  }

  /** The declarations of every tool a program may call. */
  get text(): string {
    return this.declarations.text;
  }

  /**
   * Declarations of the tools named (`tool`, `toolset.tool` or a whole `toolset`) and of the types
   * named (`Type`, `toolset.Type`), as `declarationOutline` writes them: arguments whole, results a
   * named type deep, the rest listed by name; the names nothing matched, so the answer can say so.
   */
  describe(names: readonly string[]): { text: string; unknown: string[] } {
    // A tool by its name, its toolset's or both, as search and tools/list write them, or by the path a program calls.
    const matches = (tool: DeclaredTool, asked: string) => {
      const name = asked.replace(/^api\./, '');
      const [namespace, fn] = [identifier(tool.namespace), identifier(tool.name)];
      return [tool.name, tool.namespace, `${tool.namespace}.${tool.name}`, namespace, `${namespace}.${fn}`].includes(name);
    };
    const functions = this.tools.filter((tool) => names.some((name) => matches(tool, name))).map((tool) => ({ namespace: identifier(tool.namespace), fn: identifier(tool.name) }));
    const typesByName = names.map((name) => this.typesNamed(name));
    const types = typesByName.flat();
    const unknown = names.filter((name, index) => typesByName[index]!.length === 0 && !this.tools.some((tool) => matches(tool, name)));
    return { text: declarationOutline(this.declarations, { functions, types }), unknown };
  }

  /** The declared types a name asks for: `Type` in any namespace, or `namespace.Type` (`api.` before it allowed). */
  private typesNamed(asked: string): { namespace: string; name: string }[] {
    const name = asked.replace(/^api\./, '');
    const [namespace, type] = name.includes('.') ? [name.slice(0, name.lastIndexOf('.')), name.slice(name.lastIndexOf('.') + 1)] : [undefined, name];
    return [...this.declarations.parts]
      .filter(([own, part]) => (namespace === undefined || namespace === own) && part.types.has(type))
      .map(([own]) => ({ namespace: own, name: type }));
  }

  /** Type-checks `program`, then runs it; each inner call goes to `dispatch`, the caller's own path. `caller`: its request and who it is (see `RunOptions`). */
  async execute(program: string, dispatch: InnerCallDispatch, limits: Partial<SandboxLimits> = {}, caller: Omit<RunOptions, 'check'> = {}): Promise<Execution> {
    const outcome: SandboxOutcome = await this.sandbox.run(
      program,
      {
        namespaces: this.declarations.namespaces,
        call: (namespace, fn, args, signal) => {
          const tool = this.declarations.tools.get(`${namespace}.${fn}`);
          return tool ? dispatch(tool, args, signal) : Promise.resolve({ error: { name: 'UnknownTool', message: `There is no tool api.${namespace}.${fn}.` } });
        },
      },
      limits,
      { ...caller, check: (this.check ??= programCheck(this.declarations.text)) },
    );
    return executionOf(outcome);
  }
}

/** A check against `declarations`, keyed by their digest so each worker parses one text once. */
export function programCheck(declarations: string, prelude?: string): ProgramCheck {
  return { key: createHash('sha256').update(declarations).digest('base64url'), declarations, ...(prelude !== undefined && { prelude }) };
}

/** A checked program's outcome as `execute` answers it: its value, its type problems, or how its run ended. */
export function executionOf(outcome: SandboxOutcome): Execution {
  const { logs, logsTruncated, calls } = outcome;
  if (outcome.ok) return { ok: true, value: outcome.value, logs, logsTruncated, calls };
  if (outcome.failure.kind === 'typecheck') return { ok: false, stage: 'typecheck', problems: outcome.failure.problems };
  return { ok: false, stage: 'run', failure: outcome.failure, logs, logsTruncated, calls };
}
