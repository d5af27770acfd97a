import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { argumentChecker, isCallSignal, ToolError, type CatalogSlice, type CodeModeProvider, type CodeModeRequest, type CompiledTool } from '@toolsets/core';
import { declaredTool } from '../declarations/declared-tool';
import { MISSING_FIELD_HINT } from '../declarations/as-answered';
import type { JsonSchema } from '../declarations/schema-type';
import { CodeMode, executionOf, programCheck, type Execution } from '../mode/code-mode';
import type { Sandbox } from '../sandbox/sandbox';
import { QuickJsSandbox } from '../sandbox/quickjs-sandbox';
import { DEFAULT_LIMITS, type SandboxLimits } from '../sandbox/sandbox-limits';
import { CATALOG_DECLARATIONS, catalogEntry, callPath, whyDirect } from './catalog-entries';
import { CODE_MODE_INPUTS, CODE_MODE_TOOL_NAMES, codeModeDescriptors, DEFAULT_HITS, DESCRIBE, SEARCH } from './code-mode-tools';
import { innerAnswer } from '../answers/inner-answer';
import { limitsFromEnvironment, sharingFromEnvironment } from './limits-from-environment';
import { ProgramReplay, programRecordOf } from './program-replay';

export interface CodeModeOptions {
  /** Limits for every program, over the defaults and the environment's `CODE_MODE_*`. */
  limits?: Partial<SandboxLimits>;
  /** Worker threads running programs (default 2, or `CODE_MODE_WORKERS`). */
  workers?: number;
  /** Programs waiting for a worker at once (default 16, or `CODE_MODE_QUEUE`). */
  queue?: number;
  /** Programs one caller may have running or waiting (default 2, or `CODE_MODE_PER_CALLER`). */
  perCaller?: number;
  /** How long a worker may go without a program before it is stopped and its memory given back (default 5 minutes, or `CODE_MODE_WORKER_IDLE_MS`). */
  idleMs?: number;
  /** Where `CODE_MODE_*` settings are read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Where programs run: a `Sandbox` of your own (then `workers`, `queue`, `perCaller` and `idleMs` are its own business); by default a `QuickJsSandbox`. */
  sandbox?: Sandbox;
}

/** The most bytes a `search` answer's value may take as JSON. */
export const SEARCH_VALUE_BYTES = 8 * 1024;

/**
 * Code mode for `buildServer({ codeMode: codeMode() })`: in `mode: 'code'` (`?mode=code`) the
 * server lists `search`, `describe` and `execute`, and a model's program calls the caller's own
 * view of the catalog as `api.<toolset>.<tool>(args)`, type-checked first, run in a QuickJS sandbox
 * on worker threads, each inner call through the same path as the caller's `tools/call`.
 */
export function codeMode(options: CodeModeOptions = {}): CodeModeProvider {
  return new CodeModeServer(options);
}

/** What code mode keeps per view of the catalog: built on its first use, dropped with the view. */
class ViewCode {
  readonly mode: CodeMode;
  #catalog?: string;

  constructor(
    readonly view: CatalogSlice,
    sandbox: Sandbox,
  ) {
    const callable = [...view.tools.values()].filter((tool) => whyDirect(tool) === undefined);
    this.mode = new CodeMode(callable.map(declaredTool), sandbox);
  }

  /** `catalog` for search programs, as the JSON a program's prelude parses. */
  get catalogJson(): string {
    return (this.#catalog ??= JSON.stringify([...this.view.tools.values()].map(catalogEntry)));
  }
}

class CodeModeServer implements CodeModeProvider {
  readonly names = CODE_MODE_TOOL_NAMES;
  readonly #limits: SandboxLimits;
  readonly #sharing: { workers?: number; queue?: number; perCaller?: number; idleMs?: number };
  readonly #views = new WeakMap<CatalogSlice, ViewCode>();
  readonly #lists = new Map<string, Tool[]>();
  #sandbox?: Sandbox;
  #searchCheck?: ReturnType<typeof programCheck>;

  constructor(private readonly options: CodeModeOptions) {
    const env = options.env ?? process.env;
    this.#limits = { ...DEFAULT_LIMITS, ...limitsFromEnvironment(env), ...options.limits };
    const shared = sharingFromEnvironment(env);
    this.#sharing = { ...shared, ...definedOnly({ workers: options.workers, queue: options.queue, perCaller: options.perCaller, idleMs: options.idleMs }) };
  }

  list(groupCount: number, toolCount: number): Tool[] {
    const key = `${groupCount}/${toolCount}`;
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = codeModeDescriptors(groupCount, toolCount)));
    return list;
  }

  async call(name: string, args: unknown, request: CodeModeRequest): Promise<CallToolResult> {
    const input = (args ?? {}) as Record<string, unknown>;
    const refused = requestProblem(name, input);
    if (refused) return failure('invalid_request', refused);
    if (name === DESCRIBE) return this.describe(input['names'] as string[], request.view);
    // Held to the size limit before anything reads it, search's program as execute's.
    const tooLarge = typeof input['program'] === 'string' ? this.oversized(input['program']) : undefined;
    if (tooLarge) return tooLarge;
    if (name === SEARCH) return typeof input['program'] === 'string' ? this.searchProgram(input['program'], request) : this.searchText(input, request);
    return this.execute(input['program'] as string, request);
  }

  async close(graceMs = 0): Promise<void> {
    await this.#sandbox?.close(graceMs);
  }

  private get sandbox(): Sandbox {
    return (this.#sandbox ??= this.options.sandbox ?? new QuickJsSandbox({ ...this.#sharing, limits: this.#limits }));
  }

  private viewCode(view: CatalogSlice): ViewCode {
    let code = this.#views.get(view);
    if (!code) this.#views.set(view, (code = new ViewCode(view, this.sandbox)));
    return code;
  }

  private describe(names: readonly string[], view: CatalogSlice): CallToolResult {
    const code = this.viewCode(view);
    const { text, unknown } = code.mode.describe(names);
    // A name the declarations lack may be a tool a program cannot call: say why, not just "unknown".
    const direct = unknown.map((name) => view.tools.get(name)).filter((tool): tool is CompiledTool => tool !== undefined);
    const missing = unknown.filter((name) => !view.tools.has(name));
    if (text === '') {
      const why = [...direct.map((tool) => `'${tool.name}': ${whyDirect(tool)}`), ...(missing.length > 0 ? [`no tool or toolset ${missing.map((n) => `'${clip(n)}'`).join(', ')} here; find names with search`] : [])];
      return failure('invalid_request', `Nothing to describe: ${why.join('; ')}.`);
    }
    const notes = [...direct.map((tool) => `'${tool.name}' is left out: ${whyDirect(tool)}.`), ...(missing.length > 0 ? [`Not found: ${missing.map((n) => `'${clip(n)}'`).join(', ')}.`] : [])];
    return answer({ message: `Declarations for ${names.length - unknown.length} name(s). Call them from execute as written.${notes.length > 0 ? ` ${notes.join(' ')}` : ''}`, declarations: text, ...(unknown.length > 0 && { unknown }) });
  }

  private searchText(input: Record<string, unknown>, request: CodeModeRequest): CallToolResult {
    if (typeof input['query'] !== 'string') return failure('invalid_request', 'Send either query (plain words) or program (code over catalog).');
    const hits = request.search(input['query'], (input['limit'] as number | undefined) ?? DEFAULT_HITS).map((tool) => {
      const direct = whyDirect(tool);
      const entry = catalogEntry(tool);
      // A hit a program calls is named by its call path (describe takes it as it is); one it cannot call by its name and toolset, for tools/call.
      return { ...(direct ? { name: tool.name, toolset: tool.toolset.name, direct } : { call: callPath(tool) }), summary: entry.summary, required: entry.required };
    });
    const query = JSON.stringify(clip(input['query']));
    if (hits.length === 0) return answer({ message: `No tool matches ${query}. Try other words, or a program over catalog.`, tools: [] });
    return answer({ message: `${hits.length} tool(s) for ${query}, best first. Get their TypeScript with describe({ names: [call, …] }), then call them from execute.`, tools: hits });
  }

  private oversized(program: string): CallToolResult | undefined {
    const bytes = Buffer.byteLength(program);
    if (bytes <= this.#limits.programBytes) return undefined;
    return failure('limit', `The program is ${bytes} bytes, over ${this.#limits.programBytes} (the programBytes limit; raise it with CODE_MODE_PROGRAM_BYTES).`);
  }

  private async searchProgram(program: string, request: CodeModeRequest): Promise<CallToolResult> {
    const catalog = this.viewCode(request.view).catalogJson;
    const prelude = `const catalog = Object.freeze(JSON.parse(${JSON.stringify(catalog)}).map((entry) => Object.freeze(entry)));\n`;
    const host = { namespaces: {}, call: async () => ({ error: { name: 'ToolCallError', message: 'search programs call no tools: use execute.' } }) };
    const execution = executionOf(await this.sandbox.run(program, host, { resultBytes: SEARCH_VALUE_BYTES }, { check: { ...this.searchCheck, prelude }, signal: request.signal, caller: request.caller }));
    if (!execution.ok && execution.stage === 'typecheck') return failure('type_error', `The search program does not type-check; nothing ran. ${problemText(execution.problems)}`, { problems: execution.problems });
    if (!execution.ok) return runFailure(execution);
    return answer({ message: 'The search program ran; its value is its answer.', value: execution.value ?? null, ...(execution.logs.length > 0 && { logs: execution.logs }) });
  }

  /** The check every search program gets, against the catalog's declarations. */
  private get searchCheck() {
    return (this.#searchCheck ??= programCheck(CATALOG_DECLARATIONS));
  }

  /**
   * Runs the program. When one of its calls asks the user something, the program is stopped, the
   * question put to the client as this call's own, and the program run again from the start, its
   * earlier calls answered from the record of the run before (`ProgramReplay`), until it ends.
   */
  private async execute(program: string, request: CodeModeRequest): Promise<CallToolResult> {
    const code = this.viewCode(request.view);
    let record = programRecordOf(request.record);
    const asked = new Set<string>();
    for (;;) {
      const replay = new ProgramReplay(record);
      const execution = await code.mode.execute(
        program,
        async (tool, args, signal) => {
          const compiled = request.view.tools.get(tool.name);
          if (!compiled) return { error: { name: 'ToolCallError', message: `There is no tool '${tool.name}' for this caller.` } };
          const schema = compiled.outputSchemaInFull() as JsonSchema | undefined;
          return replay.call(tool.name, args, (index) => request.call(compiled, args, signal, index), (result) => innerAnswer(result, schema));
        },
        {},
        { signal: AbortSignal.any([request.signal, replay.stop.signal]), caller: request.caller },
      );
      // A run stopped by a question keeps the answers of the calls still under way; any other run
      // answers at once (at shutdown a call may outlive the drain: its program has already ended).
      if (replay.asked) await replay.settled();
      else replay.ended();
      if (replay.diverged) return failure('replay_mismatch', replay.diverged, { calls: execution.ok || execution.stage === 'run' ? execution.calls : 0 });
      if (!replay.asked) return executed(execution);
      // An answer the call could not read would ask again forever: once is the most a question is put per execute.
      if (asked.has(replay.asked.key)) return failure('internal', `The answer to ${replay.asked.key} did not reach the call that asked it; nothing more was asked.`);
      asked.add(replay.asked.key);
      record = replay.record();
      try {
        await request.ask(replay.asked, record);
      } catch (error) {
        if (isCallSignal(error)) throw error;
        if (error instanceof ToolError) return failure(error.error, `The program stopped at a call that asks the user something. ${error.detail}`);
        throw error;
      }
    }
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Each tool's arguments checked against the schema it advertises. */
const ARGUMENT_CHECKS = Object.fromEntries(Object.entries(CODE_MODE_INPUTS).map(([name, schema]) => [name, argumentChecker(schema)]));

/** What is wrong with a call's arguments, in words, or undefined. */
function requestProblem(name: string, input: Record<string, unknown>): string | undefined {
  const problems = ARGUMENT_CHECKS[name]?.(input) ?? [];
  if (problems.length > 0) return problems.join(' ');
  if (name === SEARCH && (input['query'] === undefined) === (input['program'] === undefined)) return 'Send either query (plain words) or program (code over catalog), not both and not neither.';
  return undefined;
}

const clip = (text: string, max = 80) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function problemText(problems: readonly { line: number; column: number; message: string }[]): string {
  return problems
    .slice(0, 5)
    .map((problem) => `Line ${problem.line}, column ${problem.column}: ${problem.message}`)
    .join(' ');
}

/** What `execute` answers for a run that ended: its value, or how it failed. */
function executed(execution: Execution): CallToolResult {
  if (!execution.ok) return runFailure(execution);
  const { value, logs, logsTruncated, calls } = execution;
  return answer({ message: `The program ran, making ${calls} call(s).${logsTruncated ? ' Its logs were cut at the log limit.' : ''}`, value: value ?? null, logs, ...(logsTruncated && { logsTruncated }), calls });
}

/** A failed execute (or search program) as the tool's error: the kind, what to fix, and what ran. */
function runFailure(execution: Exclude<Execution, { ok: true }>): CallToolResult {
  if (execution.stage === 'typecheck') return failure('type_error', `The program does not type-check; nothing ran. ${problemText(execution.problems)}`, { problems: execution.problems });
  const { failure: ended, logs, calls } = execution;
  const run = { logs, calls };
  if (ended.kind === 'limit') return failure('limit', ended.message, run);
  if (ended.kind === 'stopped') return failure('stopped', ended.message, run);
  if (ended.kind === 'busy') return failure('busy', ended.message, { retryAfterSeconds: Math.ceil(ended.retryAfterMs / 1000) });
  // Reading a property of undefined: most likely a result field the API left out (see asAnswered).
  const missing = ended.name === 'TypeError' && /of (undefined|null)|undefined is not|null is not/.test(ended.message) ? `${ended.message.endsWith('.') ? '' : '.'} ${MISSING_FIELD_HINT}` : '';
  return failure('thrown', `The program threw ${ended.name}: ${ended.message}${missing}`, run);
}

function answer(content: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(content) }], structuredContent: content };
}

function failure(error: string, detail: string, extra: Record<string, unknown> = {}): CallToolResult {
  const content = { error, detail, ...extra };
  return { content: [{ type: 'text', text: JSON.stringify(content) }], structuredContent: content, isError: true };
}
