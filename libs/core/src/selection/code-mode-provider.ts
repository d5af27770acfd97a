import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../compiled/tool-catalog';
import type { CatalogSlice, CodeModeListing } from './catalog-slice';

/** What one request in code mode hands the code-mode tools: its view, the catalog's search, and its inner calls. */
export interface CodeModeRequest {
  /** The caller's view of the catalog: the tools its selection, read-only mode and token's scopes allow. */
  readonly view: CatalogSlice;
  /** The view's tools matching `query`, best first: the ranked text search `search_tools` uses. */
  search(query: string, limit: number): CompiledTool[];
  /**
   * Runs `tool` of the view exactly as this caller's own `tools/call` of it would (argument
   * validation, interceptors, result projection and validation, redaction), in a span of its own
   * under the request's. Questions to the client (elicitation, sampling) are refused with an
   * isError result saying why: a program cannot relay them. `signal` aborts it with the program.
   */
  call(tool: CompiledTool, args: unknown, signal: AbortSignal): Promise<CallToolResult>;
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
