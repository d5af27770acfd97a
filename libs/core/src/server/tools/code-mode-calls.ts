import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CatalogSlices } from '../../selection/catalog-slices';
import type { CodeModeRequest } from '../../selection/code-mode-provider';
import type { ServerTelemetry } from '../../telemetry/server-telemetry';
import { credentialsOf, type CallOrigin } from '../request/call-origin';
import { INNER_CALL_INPUT, type InnerRun } from '../request/inner-call-input';

/** Runs a catalog tool as the request's own `tools/call` would, for a code-mode program (`callOne` with an `InnerRun`). */
export type InnerCall = (tool: CompiledTool, args: unknown, run: InnerRun) => Promise<CallToolResult>;

/**
 * What a code-mode tool gets of the request that calls it: the caller's view, the catalog's search
 * over it, and inner calls that take the path this caller's own `tools/call` takes (the view holds
 * only what its selection and token's scopes allow), each in a span under the request's.
 */
export function codeModeRequest(server: Server, signal: AbortSignal, view: CatalogSlice, views: CatalogSlices, telemetry: ServerTelemetry | undefined, direct: InnerCall, caller: string): CodeModeRequest {
  // Inner calls arrive from the sandbox's worker, outside this request's async context: their spans' parent is taken now.
  const parent = context.active();
  return {
    view,
    signal,
    caller,
    search: (query, limit) => views.search.search(query, (name) => view.tools.has(name), limit).map((hit) => view.tools.get(hit.name)!),
    call: (tool, args, programSignal) => {
      const run = { input: INNER_CALL_INPUT, signal: AbortSignal.any([signal, programSignal]) };
      const invoke = async () => server.projectCallToolResult(await direct(tool, args, run), tool.descriptor.outputSchema) as CallToolResult;
      return telemetry ? telemetry.inner(tool.name, parent, invoke) : invoke();
    },
  };
}

/** `CodeModeRequest.caller` for a request from `origin`: its token's subject, else its credentials' hash, else its address. */
export function codeModeCaller(origin: CallOrigin, credentialHeaders: readonly string[]): string {
  const token = origin.caller;
  if (token) return `subject:${JSON.stringify([token.claims['iss'] ?? null, token.subject ?? null, token.clientId ?? null])}`;
  const credentials = credentialsOf(origin, credentialHeaders);
  if (credentials.length > 0) return `credentials:${createHash('sha256').update(JSON.stringify(credentials)).digest('hex')}`;
  return origin.address === undefined ? 'anonymous' : `address:${origin.address}`;
}
