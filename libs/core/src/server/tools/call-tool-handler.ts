import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CompiledTool, ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CatalogSlices } from '../../selection/catalog-slices';
import { DISCOVERY_TOOL_NAMES } from '../../selection/discovery-tools';
import type { DroppedKeyWarner } from './dropped-key-warner';
import { memberScope, principalOf, type RequestRoots, type ServingSite } from '../request/member-scope';
import { callIdentity } from '../request/request-state';
import { Call } from '../request/call';
import { runToolCall } from './tool-call';
import { clientInput, clientReach, InputRequiredSignal } from '../request/sdk-client-input';
import { callDiscoveryTool } from './discovery-calls';
import { codeModeCaller, codeModeRequest } from './code-mode-calls';
import type { ServerTelemetry } from '../../telemetry/server-telemetry';
import { hidesOutOfScope } from '../request/verified-caller';
import { runInterceptors } from './interceptor-chain';
import { CallAbort, InterceptedCall } from './intercepted-call';
import { interceptorCaller } from '../request/interceptor-caller';
import type { TaskRun } from '../../context/task-context';
import type { InnerRun } from '../request/program-input';

/** Built once per server definition: everything a `tools/call` needs that does not vary per call. */
export interface CallToolSetup extends RequestRoots {
  /** The server's name: the mount an interceptor's caller came through. */
  name: string;
  catalog: ToolCatalog;
  views: CatalogSlices;
  warnDropped?: DroppedKeyWarner;
  /** The server's spans, for the calls code-mode programs make (a request's own span is its server's). */
  telemetry?: ServerTelemetry;
}

/** A `tools/call` request's params as the handlers read them (`task`: a 2025-11-25 client asks for one). */
export type CallRequest = { params: { name: string; arguments?: Record<string, unknown>; task?: { ttl?: number } } };
/** A `tools/call` handler past its entry: the request's `Call` is made. */
export type ToolsCallHandler = (request: CallRequest, call: Call & { site: ServingSite }) => Promise<CallToolResult>;

/** The SDK-facing `tools/call` handler of `server`, made for `site`: the request's `Call` is made here, once, and handed to `handle`. */
export function toolsCallEntry(handle: ToolsCallHandler, site: ServingSite, server: Server) {
  return (request: CallRequest, ctx: ServerContext): Promise<CallToolResult> => handle(request, Call.ofRequest(site, ctx, server) as Call & { site: ServingSite });
}

/**
 * The `tools/call` handler of one SDK `Server` instance, serving one view of the catalog: a tool
 * outside it is unknown here. In discovery mode the discovery tools are served too, in code mode code mode's.
 */
export function callToolHandler(definition: CallToolSetup): ToolsCallHandler {
  // Once per handler, not per call: the credentials that tell code mode's callers apart.
  const credentialHeaders = [...new Set(definition.catalog.toolsets.flatMap((toolset) => toolset.credentialHeaders))];
  return async (request, call) => {
    const { name } = request.params;
    const view = call.view();
    try {
      // In discovery mode its three tools come first: a catalog tool of the same name stays reachable through call_tool.
      if (view.selection.mode === 'discovery' && DISCOVERY_TOOL_NAMES.has(name)) {
        const direct = (target: CompiledTool, args: unknown) => callOne(definition, call, target, args);
        return await callDiscoveryTool(name, request.params.arguments, view, definition.views, direct);
      }
      // In code mode its tools come first the same way: a catalog tool of the same name stays reachable from a program.
      const codeMode = definition.views.codeMode;
      if (view.selection.mode === 'code' && codeMode?.names.has(name)) {
        const inner = (target: CompiledTool, args: unknown, run: InnerRun) => callOne(definition, call, target, args, run);
        const caller = codeModeCaller(call.origin, credentialHeaders);
        // The questions a program's calls ask are this call's: a 2026-07-28 requestState is bound to the caller and the program.
        call.arguments = request.params.arguments ?? null;
        const { era, transport } = call.origin;
        const identity = () => callIdentity(call, principalOf(credentialHeaders, call.origin), `code-mode.${name}`);
        const input = clientInput(call.request!, call.server, era, transport, { seal: definition.requestState, identity });
        const reach = clientReach(call.request!, call.server, era, transport);
        return await codeMode.call(name, request.params.arguments, codeModeRequest({ server: call.server, signal: call.signal, view, caller, input, reach }, definition.views, definition.telemetry, inner));
      }
      const tool = view.tools.get(name);
      if (tool) return call.server.projectCallToolResult(await callOne(definition, call, tool, request.params.arguments), tool.descriptor.outputSchema) as CallToolResult;
    } catch (signal) {
      if (signal instanceof InputRequiredSignal) return (await signal.toResult()) as unknown as CallToolResult;
      throw signal;
    }
    const outside = definition.catalog.tools.has(name) ? outsideView(definition.catalog.tools.get(name)!, call.site.served.view, view, call.request !== undefined && hidesOutOfScope(call.request)) : '';
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool '${clip(name)}'.${outside} ${view.availableTools}`);
  };
}

/**
 * One call of `tool`, through its interceptors, in a scope of its own. As a task (`task`), it
 * reports and asks through the task, and its signal is the task's (a result that reports an
 * unexpected failure ends the task `failed`: `unexpectedFailureOf`). For a code-mode
 * program (an `InnerRun`), its questions go through the program and its signal is the program's.
 */
export function callOne(definition: CallToolSetup, call: Call, tool: CompiledTool, args: unknown, task?: TaskRun | InnerRun): Promise<CallToolResult> {
  const app = definition.catalog.interceptors;
  const { site } = call;
  // A 2026-07-28 call's sealed requestState is bound to these arguments.
  if (!task) call.arguments = args;
  if (app.length === 0 && tool.interceptors.length === 0) {
    const { instantiate, logger, redact } = memberScope(definition, call, tool.toolset, tool.name, { forms: tool.elicitationForms, run: task });
    return runToolCall(tool, args, { instantiate, logger, limits: site.limits, warnDropped: definition.warnDropped, redact, signal: task?.signal ?? call.signal });
  }
  // Interceptors may abort the call (a deadline): the tool's signal is the call's own, aborted with the request's (or the task's).
  const abort = new CallAbort(task?.signal ?? call.signal);
  const scope = memberScope(definition, call, tool.toolset, tool.name, { forms: tool.elicitationForms, signal: () => abort.signal, run: task });
  const chain = app.length === 0 ? tool.interceptors : [...app, ...tool.interceptors];
  const around = (validArgs: Record<string, unknown>, invoke: () => unknown) =>
    runInterceptors(chain, scope.resolve, new InterceptedCall(tool, validArgs, abort, () => interceptorCaller(definition.name, scope.origin, tool.toolset)), invoke);
  return runToolCall(tool, args, { instantiate: scope.instantiate, logger: scope.logger, limits: site.limits, warnDropped: definition.warnDropped, around, redact: scope.redact, signal: abort.signal });
}


/** Why a tool of this server is not in the request's view: its selection, or its token's scopes. */
function outsideView(tool: CompiledTool, selected: CatalogSlice, view: CatalogSlice, hidden: boolean): string {
  if (selected.tools.has(tool.name) && view !== selected) return hidden ? '' : ` The access token lacks a scope it needs (${tool.requiredScopes.join(' ')}).`;
  return " It exists on this server but is outside this request's selection (toolsets, read-only).";
}
