import { ProtocolError, ProtocolErrorCode, type CompleteResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CompiledArgs, CompiledToolset, ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { Logger } from '../logging/logger';
import { stackField } from '../logging/error-stack';
import { refuseWithoutScopes } from '../request/scope-check';

/** The protocol's most values in one completion. */
const MAX_VALUES = 100;

type CompleteRequest = {
  params: {
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: { arguments?: Record<string, string> };
  };
};

/** `completion/complete`: the completer declared with `@Complete` next to the argument, if any. */
export function completionHandler(catalog: ToolCatalog, logger: Logger) {
  return async (request: CompleteRequest, ctx: ServerContext): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    const { args, toolset } = completedMember(catalog, ref);
    // Completions come from a toolset's own data: the same scopes as its prompts and resources.
    refuseWithoutScopes(ctx, toolset.requiredScopes, `completing an argument of toolset '${toolset.name}'`, () => unknownRef(ref));
    const complete = args.completers.get(argument.name);
    if (!complete) return { completion: { values: [] } };
    let values: readonly string[];
    try {
      values = await complete(String(argument.value ?? ''), { arguments: request.params.context?.arguments ?? {} });
    } catch (error) {
      logger.error('completer threw', { argument: argument.name, detail: error instanceof Error ? error.message : String(error), ...stackField(error) });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Completing '${clip(argument.name)}' failed; the server log has the details.`);
    }
    const strings = values.filter((value): value is string => typeof value === 'string');
    return { completion: { values: strings.slice(0, MAX_VALUES), total: strings.length, hasMore: strings.length > MAX_VALUES } };
  };
}

/** The prompt or resource template a completion is for: its arguments and its toolset. */
function completedMember(catalog: ToolCatalog, ref: CompleteRequest['params']['ref']): { args: CompiledArgs; toolset: CompiledToolset } {
  if (ref.type === 'ref/prompt') {
    const prompt = catalog.prompts.get(ref.name);
    if (!prompt) throw unknownRef(ref);
    return prompt;
  }
  const template = catalog.templates.find((candidate) => candidate.descriptor.uriTemplate === ref.uri);
  if (!template) throw unknownRef(ref);
  return template;
}

/** The answer for a prompt or template this server does not have (or hides from the caller). */
function unknownRef(ref: CompleteRequest['params']['ref']): ProtocolError {
  const what = ref.type === 'ref/prompt' ? `prompt '${clip(String(ref.name))}'` : `resource template '${clip(String(ref.uri))}'`;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${what}.`);
}
