import { AsyncLocalStorage } from 'node:async_hooks';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, type Client, type ClientCapabilities, type ElicitRequestParams, type InputRequests, type InputResponses } from '@modelcontextprotocol/client';
import { ToolError, type RequestContext } from '@toolsets/core';

/** The questions a 2025-era upstream may ask its client (server-to-client requests). */
export type QuestionMethod = 'elicitation/create' | 'sampling/createMessage';

/** Answers a question the upstream asked (its params, `_meta` included), through the caller it belongs to. */
export type QuestionAnswerer = (method: QuestionMethod, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Who answers a question a 2025-era upstream asks during a request: set for the request's
 * duration. Over streamable HTTP the upstream asks on the response stream of the request it
 * belongs to, which the SDK's transport reads in that request's asynchronous context, so the
 * question finds its caller here; over stdio a question comes from the child's output, read
 * outside any request, and finds no one (the connection is opened outside any request too).
 */
export const askingCall = new AsyncLocalStorage<QuestionAnswerer>();

/**
 * The most `input_required` rounds one upstream call may take before it is given up: a server that
 * asks again whatever it is told must not hold a caller in a loop.
 */
export const MAX_INPUT_ROUNDS = 8;

/** The caller's answers to an upstream's last round of questions, sent with the next request. */
export interface Answered {
  inputResponses: InputResponses;
  requestState?: string;
}

/** What a request to the upstream carries besides its own params: the caller's capabilities (2026-07-28) and the answers so far. */
export type AskedParams = Partial<Answered> & { _meta?: Record<string, unknown> };

/**
 * The params a request to `client`'s upstream adds: on 2026-07-28 each request carries its client's
 * capabilities, the caller's here, so the upstream asks only what the caller can answer; and the
 * answers to the upstream's last questions, with its request state.
 */
export function askedParams(client: Client, context: RequestContext, answered: Answered | undefined): AskedParams {
  const modern = (client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28';
  return { ...(modern && { _meta: { [CLIENT_CAPABILITIES_META_KEY]: answerableBy(context) } }), ...answered };
}

/**
 * What the caller declared it can answer (elicitation, sampling, roots), to send a 2026-07-28
 * upstream as this call's client capabilities: the upstream asks only what the caller can answer,
 * and otherwise does without, or refuses as it would refuse the caller.
 */
export function answerableBy(context: RequestContext): ClientCapabilities {
  const declared = context.clientCapabilities ?? {};
  return {
    ...(declared.elicitation && { elicitation: declared.elicitation }),
    ...(declared.sampling && { sampling: declared.sampling }),
    ...(declared.roots && { roots: declared.roots }),
  };
}

/**
 * The caller's answers to what a 2026-07-28 upstream asked in an `input_required` answer, under the
 * upstream's own keys: each question relayed to the caller through the call's context (a form or a
 * URL to the user, a message to the client's model, its roots), all at once so that a 2026-07-28
 * caller gets them in one round. A caller on 2026-07-28 answers by calling again: the tool then runs
 * from the start, the upstream asks the same questions, and the context has their answers.
 */
export async function relayQuestions(what: string, requests: InputRequests, context: RequestContext): Promise<InputResponses> {
  const entries = Object.entries(requests);
  const answers = await Promise.all(
    entries.map(([key, request]): Promise<InputResponses[string]> => {
      // The caller's questions are named by the upstream's keys, so a round after a replay finds its answers.
      const options = { key: `upstream.${key}` };
      switch (request.method) {
        case 'elicitation/create':
          return context.relayElicitation(request.params as ElicitRequestParams, options);
        case 'sampling/createMessage':
          return context.sample(request.params, options);
        case 'roots/list':
          return context.roots(options).then((roots) => ({ roots }));
        default:
          throw new ToolError('upstream_question_unsupported', `The upstream MCP server asked, during ${what}, for ${JSON.stringify((request as { method?: unknown }).method)}, which this server cannot pass on.`);
      }
    }),
  );
  return Object.fromEntries(entries.map(([key], index) => [key, answers[index]!]));
}

/**
 * Answers the questions a 2025-era upstream asks during one request (or about one task) through
 * its caller: each relayed as the caller's own (`relayQuestions`), keyed by its order, so that a
 * 2026-07-28 caller's retry, which runs the tool again, finds its answers. A question the caller
 * cannot answer (a `ToolError`) is refused to the upstream with why. Anything else the caller's
 * call must do first (a 2026-07-28 caller's `input_required` round) goes to `interrupted`, which
 * ends the request and has the call throw it in the request's place.
 */
export function callQuestions(what: string, context: RequestContext, interrupted: (reason: unknown) => void = () => undefined): QuestionAnswerer {
  let asked = 0;
  return async (method, params) => {
    // The upstream's `_meta` (its task's id, its progress token) stays here.
    const { _meta: _upstreams, ...question } = params;
    const key = `ask.${++asked}`;
    try {
      const answers = await relayQuestions(what, { [key]: { method, params: question } as never }, context);
      return answers[key] as Record<string, unknown>;
    } catch (error) {
      if (error instanceof ToolError) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, error.detail);
      interrupted(error);
      throw error;
    }
  };
}
