import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../compiled/tool-catalog';
import type { CatalogSlice, CodeModeListing } from './catalog-slice';

/**
 * A question one call of a code-mode program asked: the client-input method it used, its key in
 * the program's call (`call-<n>/<the tool's own key>`, `n` the call's place in the program's order)
 * and what it asks. The program stops; the question goes to the client as the `execute` call's own.
 */
export interface ProgramQuestion {
  readonly kind: 'elicit' | 'elicitUrl' | 'sample' | 'roots';
  readonly key: string;
  readonly params?: unknown;
}

/** An inner call that asked the client something: the program stops, and `CodeModeRequest.ask` puts the question. */
export interface AskedQuestion {
  readonly asked: ProgramQuestion;
}

/** What one request in code mode hands the code-mode tools: its view, the catalog's search, and its inner calls. */
export interface CodeModeRequest {
  /** The caller's view of the catalog: the tools its selection, read-only mode and token's scopes allow. */
  readonly view: CatalogSlice;
  /** The view's tools matching `query`, best first: the ranked text search `search_tools` uses. */
  search(query: string, limit: number): CompiledTool[];
  /**
   * Runs `tool` of the view exactly as this caller's own `tools/call` of it would (argument
   * validation, interceptors, result projection and validation, redaction), in a span of its own
   * under the request's. `index` is the call's place in the program's order: a question the tool
   * asks (elicitation, sampling, roots) is answered from what the `execute` call was told under
   * that place, else the call ends with `{ asked }` and the program should stop and `ask` it.
   * `signal` aborts it with the program.
   */
  call(tool: CompiledTool, args: unknown, signal: AbortSignal, index: number): Promise<CallToolResult | AskedQuestion>;
  /**
   * Puts a question an inner call asked to the client, as the `execute` call's own, keeping
   * `record` for the next run. A 2025-era call resolves once the client answered (the answer is
   * there for the next run's inner calls). A 2026-07-28 call rejects with the call's
   * `input_required` signal (`isCallSignal`): let it through, and the client retries `execute`
   * with the answer and `record` (sealed in its `requestState`). Rejects with a `ToolError` when
   * this client cannot be asked (a 2025-era client over stateless HTTP, or one without the capability).
   */
  ask(question: ProgramQuestion, record: unknown): Promise<void>;
  /** What an earlier round of this `execute` call kept (`ask`'s record), else undefined. */
  readonly record: unknown;
  /** Aborts when the request is cancelled or its connection closes. */
  readonly signal: AbortSignal;
  /**
   * Who calls, to share the sandbox's workers fairly: the verified token's issuer and subject, else
   * a hash of the declared credentials it sent, else its address; `anonymous` when nothing tells
   * callers apart (stdio, in memory). Never a secret.
   */
  readonly caller: string;
}

/**
 * Code mode, as core serves it: the tools a view in `mode: 'code'` lists, and their calls. Core
 * knows nothing of sandboxes or TypeScript: `@toolsets/code-mode`'s `codeMode()` provides this,
 * passed to `buildServer({ codeMode })`, so servers that do not serve code mode carry none of it.
 */
export interface CodeModeProvider extends CodeModeListing {
  /** The names of the tools it lists: a call to one of them in code mode comes to `call`. */
  readonly names: ReadonlySet<string>;
  /** Its tools as `tools/list` gives them, for a view of `toolCount` tools in `groupCount` groups (same bytes every time). */
  list(groupCount: number, toolCount: number): Tool[];
  call(name: string, args: unknown, request: CodeModeRequest): Promise<CallToolResult>;
  /**
   * Takes no more programs; those running get up to `graceMs` (default 0) to end, then are stopped
   * and answered saying the server stopped; then frees its workers.
   */
  close(graceMs?: number): Promise<void>;
}
