import { createHash } from 'node:crypto';
import { context } from '@opentelemetry/api';
import type { CallToolResult, Server } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../../compiled/tool-catalog';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { CatalogSlices } from '../../selection/catalog-slices';
import type { CodeModeRequest } from '../../selection/code-mode-provider';
import type { ServerTelemetry } from '../../telemetry/server-telemetry';
import { credentialsOf, type CallOrigin } from '../request/call-origin';
import type { ClientInput } from '../../context/client-requests';
import { ProgramQuestionSignal, programCallInput, type InnerRun, type ProgramReach } from '../request/program-input';

/** Runs a catalog tool as the request's own `tools/call` would, for a code-mode program (`callOne` with an `InnerRun`). */
export type InnerCall = (tool: CompiledTool, args: unknown, run: InnerRun) => Promise<CallToolResult>;

/** The request a code-mode tool serves: its server, signal and view, and `input`, the client input of the code-mode call itself. */
export interface CodeModeCall {
  server: Server;
  signal: AbortSignal;
  view: CatalogSlice;
  caller: string;
  input: ClientInput;
  /** Whether its client can be asked each kind of question. */
  reach: ProgramReach;
}

/**
 * What a code-mode tool gets of the request that calls it: the caller's view, the catalog's search
 * over it, and inner calls that take the path this caller's own `tools/call` takes (the view holds
 * only what its selection and token's scopes allow), each in a span under the request's. An inner
 * call's questions are answered from what the code-mode call has been told, else they end the call
 * with the question, which `ask` puts to the client as the code-mode call's own.
 */
export function codeModeRequest(request: CodeModeCall, views: CatalogSlices, telemetry: ServerTelemetry | undefined, direct: InnerCall): CodeModeRequest {
  const { server, signal, view, caller, input, reach } = request;
  // Inner calls arrive from the sandbox's worker, outside this request's async context: their spans' parent is taken now.
  const parent = context.active();
  const answers = () => input.gathered?.() ?? {};
  return {
    view,
    signal,
    caller,
    record: input.kept?.(),
    search: (query, limit) => views.search.search(query, (name) => view.tools.has(name), limit).map((hit) => view.tools.get(hit.name)!),
    call: (tool, args, programSignal, index) => {
      const run = { input: programCallInput(answers, reach, index), signal: AbortSignal.any([signal, programSignal]) };
      const invoke = async () => {
        try {
          return server.projectCallToolResult(await direct(tool, args, run), tool.descriptor.outputSchema) as CallToolResult;
        } catch (error) {
          if (error instanceof ProgramQuestionSignal) return { asked: error.question };
          throw error;
        }
      };
      return telemetry ? telemetry.inner(tool.name, parent, invoke) : invoke();
    },
    ask: async (question, record) => {
      input.keep?.(record);
      const params = question.params as never;
      if (question.kind === 'elicit') await input.elicit(params, { key: question.key });
      else if (question.kind === 'elicitUrl') await input.elicitUrl(params, { key: question.key });
      else if (question.kind === 'sample') await input.sample(params, { key: question.key });
      else await input.listRoots({ key: question.key });
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
