import { ProtocolError, ProtocolErrorCode, type CompleteResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CompiledArgs, CompiledToolset, ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import { refuseWithoutScopes } from '../request/scope-check';
import { MissingCredentialError } from '../../errors/missing-credential.error';
import { UndeclaredCredentialError } from '../../errors/undeclared-credential.error';
import { memberScope, type CallSite, type RequestRoots } from '../request/member-scope';
import { Call } from '../request/call';
import type { Server } from '@modelcontextprotocol/server';

/** The protocol's most values in one completion. */
const MAX_VALUES = 100;

type CompleteRequest = {
  params: {
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  };
};

/**
 * `completion/complete` for each SDK `Server` instance: the completer declared with `@Complete`
 * next to the argument, if any, given the member's toolset as a call of this request would have it
 * (made only if the completer reads it).
 */
export function completionHandler(definition: RequestRoots & { catalog: ToolCatalog }, logger: Logger) {
  const { catalog } = definition;
  return (site: CallSite, server: Server) => async (request: CompleteRequest, ctx: ServerContext): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    const { args, toolset, name } = completedMember(catalog, ref);
    // Completions come from a toolset's own data: the same scopes as its prompts and resources.
    refuseWithoutScopes(ctx, toolset.requiredScopes, `completing an argument of toolset '${toolset.name}'`, () => unknownRef(ref));
    const complete = args.completers.get(argument.name);
    if (!complete) return { completion: { values: [] } };
    let instance: unknown;
    const context = {
      arguments: request.params.context?.arguments ?? {},
      get toolset() {
        instance ??= memberScope(definition, Call.ofRequest(site, ctx, server), toolset, name).instantiate();
        return instance;
      },
    };
    let values: readonly string[];
    try {
      values = await complete(String(argument.value ?? ''), context);
    } catch (error) {
      // The caller's to fix (its client sends no such header), as for a call: said, not logged as the server's fault.
      if (error instanceof MissingCredentialError || error instanceof UndeclaredCredentialError) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.message);
      logger.error('completer threw', { argument: argument.name, detail: error instanceof Error ? error.message : String(error), ...stackField(error) });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Completing '${clip(argument.name)}' failed; the server log has the details.`);
    }
    const strings = values.filter((value): value is string => typeof value === 'string');
    return { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } };
  };
}

/** The prompt or resource template a completion is for: its arguments and its toolset. */
function completedMember(catalog: ToolCatalog, ref: CompleteRequest['params']['ref']): { args: CompiledArgs; toolset: CompiledToolset; name: string } {
  if (ref.type === 'ref/prompt') {
    const prompt = catalog.prompts.get(ref.name);
    if (!prompt) throw unknownRef(ref);
    return prompt;
  }
  const template = catalog.templates.find((candidate) => candidate.descriptor.uriTemplate === ref.uri);
  if (!template) throw unknownRef(ref);
  return { ...template, name: template.descriptor.name };
}

/** The answer for a prompt or template this server does not have (or hides from the caller). */
function unknownRef(ref: CompleteRequest['params']['ref']): ProtocolError {
  const what = ref.type === 'ref/prompt' ? `prompt '${clip(String(ref.name))}'` : `resource template '${clip(String(ref.uri))}'`;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${what}.`);
}
