import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  inputResponse,
  type CreateMessageResult,
  type ElicitResult,
  type InputRequest,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientInput } from '../../context/client-requests';
import { ElicitationAnswerMismatch, sdkAnswerProblems } from '../../context/elicitation-answer';
import type { ProtocolEra, TransportKind } from '../../context/request-context';
import { ToolError } from '../../results/tool-error';

/**
 * Thrown by `elicit`/`sample` on a 2026-07-28 request that does not yet carry the answer: the
 * call ends with an `input_required` result, and the client retries it with the answers, which
 * runs the tool again from the start (the protocol's multi round-trip).
 */
export class InputRequiredSignal {
  constructor(
    readonly requests: Record<string, InputRequest>,
    readonly state: string,
  ) {}

  toResult() {
    return inputRequired({ inputRequests: this.requests, requestState: this.state });
  }
}

/** Elicitation or sampling cannot reach this client: sent to it as an isError result that says why. */
export class ClientInputUnavailableError extends ToolError {
  constructor(what: 'elicitation' | 'sampling', why: string) {
    super(`${what}_unavailable`, `This tool needs ${what === 'elicitation' ? 'to ask the user a question (elicitation)' : "the client's model (sampling)"}, which ${why}`);
  }
}

/**
 * Elicitation and sampling for one request, in the way its era and transport allow:
 * 2026-07-28 clients get `input_required` results; 2025-era clients get server-to-client
 * requests, which need a connection that carries the answer back (stdio, in memory).
 */
export function clientInput(ctx: ServerContext, server: Server, era: ProtocolEra, transport: TransportKind): ClientInput {
  if (era === 'modern') return roundTrips(ctx);
  // A 2025-era HTTP session carries answers back; stateless HTTP has no session to carry them.
  const ensureReachable = (what: 'elicitation' | 'sampling') => {
    if (transport === 'http' && !ctx.sessionId) {
      throw new ClientInputUnavailableError(
        what,
        "a 2025-era client over stateless HTTP cannot answer: its answer arrives on a new request no server instance is waiting for. Use a 2026-07-28 client or stdio, or serve with MCP_SESSIONS=on.",
      );
    }
    if (!server.getClientCapabilities()?.[what]) throw new ClientInputUnavailableError(what, `this client does not support (it declared no ${what} capability).`);
  };
  return {
    elicit: async (params) => {
      ensureReachable('elicitation');
      try {
        return await ctx.mcpReq.elicitInput(params as never);
      } catch (error) {
        // The SDK checks a 2025-era answer against the form itself; RequestContext says so as the tool's own failure.
        if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) throw new ElicitationAnswerMismatch(sdkAnswerProblems(error.message));
        throw error;
      }
    },
    sample: async (params) => {
      ensureReachable('sampling');
      return (await ctx.mcpReq.requestSampling(params)) as CreateMessageResult;
    },
  };
}

/**
 * The 2026-07-28 way: each `elicit`/`sample` in a call has a key by its order (`elicit-1`,
 * `sample-2`). An answer the retried request carries is returned; the first one missing ends the
 * call with `input_required`. Answers already given ride along in `requestState`, since a retry
 * carries only the answers to the latest requests; they are the client's own answers, checked
 * again like any argument.
 */
function roundTrips(ctx: ServerContext): ClientInput {
  const earlier = parseState(ctx.mcpReq.requestState<string>());
  const answers: Record<string, unknown> = { ...earlier, ...(ctx.mcpReq.inputResponses ?? {}) };
  let order = 0;
  const ask = (key: string, request: InputRequest): never => {
    throw new InputRequiredSignal({ [key]: request }, JSON.stringify(answers));
  };
  return {
    elicit: async (params) => {
      const key = `elicit-${++order}`;
      const answer = inputResponse(answers, key);
      if (answer.kind !== 'elicit') return ask(key, inputRequired.elicit(params as never));
      return { action: answer.action, ...(answer.content && { content: answer.content }) } as ElicitResult;
    },
    sample: async (params) => {
      const key = `sample-${++order}`;
      const answer = inputResponse(answers, key);
      if (answer.kind !== 'sampling') return ask(key, inputRequired.createMessage(params));
      return answer.result as CreateMessageResult;
    },
  };
}

function parseState(state: string | undefined): Record<string, unknown> {
  if (typeof state !== 'string') return {};
  try {
    const parsed = JSON.parse(state) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
