import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../../compiled/tool-catalog';
import { clip } from '../../helpers/client-text';
import type { PromptMessage, PromptOutput } from '../../wire/prompt-message';
import { contentProblems } from '../checks/content-check';
import type { ExtraContent } from '../../wire/tool-content';
import { invokeMember, memberInput, unsendable } from './member-call';
import { memberScope, type CallSite, type RequestRoots } from '../request/member-scope';
import { Call } from '../request/call';
import { mayUse, refuseWithoutScopes } from '../request/scope-check';
import { redactValue } from '../logging/redaction';
import { InputRequiredSignal } from '../request/sdk-client-input';

type GetPromptRequest = { params: { name: string; arguments?: Record<string, string> } };

/** A `prompts/get` handler for each SDK `Server` instance (the list is its view's). */
export function promptHandlers(definition: RequestRoots & { catalog: ToolCatalog }) {
  const { catalog } = definition;
  return {
    get: (site: CallSite, server: Server) => async (request: GetPromptRequest, ctx: ServerContext): Promise<GetPromptResult> => {
      const unknown = () => {
        const names = [...catalog.prompts.values()].filter((p) => mayUse(ctx, p.toolset.requiredScopes)).map((p) => p.name);
        return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt '${clip(request.params.name)}'. Available prompts: ${names.join(', ') || 'none'}.`);
      };
      const prompt = catalog.prompts.get(request.params.name);
      if (!prompt) throw unknown();
      const what = `prompt '${prompt.name}'`;
      refuseWithoutScopes(ctx, prompt.toolset.requiredScopes, what, unknown);
      const input = memberInput(prompt.args, request.params.arguments ?? {}, what);
      // A 2026-07-28 get's sealed requestState is bound to these arguments.
      const call = Call.ofRequest(site, ctx, server);
      call.arguments = request.params.arguments ?? {};
      const scope = memberScope(definition, call, prompt.toolset, prompt.name, { forms: prompt.elicitationForms });
      let output: PromptOutput;
      try {
        output = (await invokeMember(scope, prompt.methodName, input, what)) as PromptOutput;
      } catch (signal) {
        // A prompt that asks the user first: the get ends with input_required, and the client retries it with the answer.
        if (signal instanceof InputRequiredSignal) return (await signal.toResult()) as unknown as GetPromptResult;
        throw signal;
      }
      const messages = redactValue(messagesOf(output), scope.redact) as PromptMessage[];
      const problems = messageProblems(messages);
      if (problems.length > 0) throw unsendable(scope.logger, what, problems);
      return { ...(prompt.descriptor.description !== undefined && { description: prompt.descriptor.description }), messages: messages as GetPromptResult['messages'] };
    },
  };
}

function messagesOf(output: PromptOutput): PromptMessage[] {
  if (typeof output === 'string') return [{ role: 'user', content: { type: 'text', text: output } }];
  return Array.isArray(output) ? [...output] : [output as PromptMessage];
}

function messageProblems(messages: readonly PromptMessage[]): string[] {
  if (messages.length === 0) return ['no messages: return at least one'];
  return messages.flatMap((message, index) => {
    const at = `messages[${index}]`;
    if (message?.role !== 'user' && message?.role !== 'assistant') return [`${at}: role must be 'user' or 'assistant' (use userMessage() or assistantMessage())`];
    const content = message.content;
    if (content?.type === 'text') return typeof content.text === 'string' ? [] : [`${at}: a text block needs its text`];
    return contentProblems([content as ExtraContent]).map((problem) => problem.replace('content[0]', at));
  });
}
