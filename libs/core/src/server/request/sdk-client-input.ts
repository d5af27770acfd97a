import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
  type InputRequest,
  type InputRequiredResult,
  type ListRootsResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ClientInput } from '../../context/client-requests';
import { ElicitationAnswerMismatch, sdkAnswerProblems } from '../../context/elicitation-answer';
import type { ProtocolEra, TransportKind } from '../../context/request-context';
import { ToolError } from '../../results/tool-error';
import type { RequestStateSeal } from './request-state';
import { QuestionKeys } from './start-task';
import { CallSignal } from './call-signal';

/** The questions one 2026-07-28 call asks in this round, and how its `requestState` is sealed. */
class Round {
  readonly requests: Record<string, InputRequest> = {};
  /** What the call keeps for its next round besides the answers (`ClientInput.keep`). */
  kept: unknown;

  constructor(
    private readonly answers: Record<string, unknown>,
    private readonly seal: (answers: Record<string, unknown>, kept: unknown) => Promise<string>,
  ) {}

  /** The `input_required` result: every question asked this round, and the answers so far (with what the call keeps), sealed. */
  async result(): Promise<InputRequiredResult> {
    return inputRequired({ inputRequests: this.requests, requestState: await this.seal(this.answers, this.kept) });
  }
}

/**
 * Thrown by `elicit`/`sample`/`listRoots` on a 2026-07-28 request that does not yet carry the
 * answer: the call ends with an `input_required` result listing every question the call asked
 * before it noticed (questions asked together, `Promise.all`, go in one round), and the client
 * retries with the answers, which runs the tool again from the start (the protocol's multi round-trip).
 */
export class InputRequiredSignal extends CallSignal {
  constructor(private readonly round: Round) {
    super();
  }

  toResult(): Promise<InputRequiredResult> {
    return this.round.result();
  }
}

/** A retried call's `requestState` that cannot be its own: the request is refused (-32602), not the tool's failure. */
export class RequestStateRefusal extends ProtocolError {
  constructor(why: string) {
    super(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}`);
  }
}

/** Elicitation or sampling cannot reach this client: sent to it as an isError result that says why. */
export class ClientInputUnavailableError extends ToolError {
  constructor(what: 'elicitation' | 'sampling' | 'roots', why: string) {
    const needs = { elicitation: 'to ask the user a question (elicitation)', sampling: "the client's model (sampling)", roots: "the client's roots" }[what];
    super(`${what}_unavailable`, `This tool needs ${needs}, which ${why}`);
  }
}

/** What a 2026-07-28 call's questions need beyond its context: the seal of its `requestState`, and what the call was. */
export interface RoundTripSetup {
  seal: RequestStateSeal;
  /** The call's identity (who asked, which member, with which arguments): a `requestState` made for another is refused. */
  identity: () => string;
}

/**
 * Elicitation, sampling and roots for one request, in the way its era and transport allow:
 * 2026-07-28 clients get `input_required` results; 2025-era clients get server-to-client
 * requests, which need a connection that carries the answer back (stdio, in memory, a session).
 */
export function clientInput(ctx: ServerContext, server: Server, era: ProtocolEra, transport: TransportKind, setup: RoundTripSetup): ClientInput {
  if (era === 'modern') return roundTrips(ctx, setup);
  const ensureReachable = (what: 'elicitation' | 'elicitation.url' | 'sampling' | 'roots') => {
    const unreachable = clientReach(ctx, server, era, transport)(what);
    if (unreachable) throw unreachable;
  };
  // Kept by question key: a call that becomes a task (`askFirst`) takes them with it.
  const answers: Record<string, unknown> = {};
  const keys = new QuestionKeys();
  const kept = <T>(key: string, answer: T): T => ((answers[key] = answer), answer);
  let state: unknown;
  return {
    keep: (value) => void (state = value),
    kept: () => state,
    elicit: async (params, options) => {
      const key = keys.next('elicit', options?.key);
      ensureReachable('elicitation');
      try {
        return kept(key, await ctx.mcpReq.elicitInput(params as never));
      } catch (error) {
        // The SDK checks a 2025-era answer against the form itself; RequestContext says so as the tool's own failure.
        if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) throw new ElicitationAnswerMismatch(sdkAnswerProblems(error.message));
        throw error;
      }
    },
    sample: async (params, options) => {
      const key = keys.next('sample', options?.key);
      ensureReachable('sampling');
      return kept(key, (await ctx.mcpReq.requestSampling(params)) as CreateMessageResult);
    },
    listRoots: async (options) => {
      const key = keys.next('roots', options?.key);
      ensureReachable('roots');
      return kept(key, await server.listRoots());
    },
    elicitUrl: async (params, options) => {
      const key = keys.next('elicit', options?.key);
      ensureReachable('elicitation.url');
      return kept(key, await ctx.mcpReq.elicitInput({ mode: 'url', message: params.message, url: params.url, elicitationId: randomUUID() }));
    },
    gathered: () => answers,
  };
}

/**
 * Whether the client of a request can be asked `what` (`elicitation.url`: sent to a URL): undefined
 * when it can, else why not, as the error a tool's call ends with. A 2026-07-28 client can when it
 * declared the capability in the request; a 2025-era client when it declared it at initialize and
 * its connection carries the answer back (stdio, in memory, a session: stateless HTTP has none).
 */
export function clientReach(ctx: ServerContext, server: Server, era: ProtocolEra, transport: TransportKind) {
  return (what: 'elicitation' | 'elicitation.url' | 'sampling' | 'roots'): ClientInputUnavailableError | undefined => {
    const kind = what === 'elicitation.url' ? 'elicitation' : what;
    if (era !== 'modern' && transport === 'http' && !ctx.sessionId) {
      return new ClientInputUnavailableError(
        kind,
        'a 2025-era client over stateless HTTP cannot answer: its answer arrives on a new request no server instance is waiting for. Use a 2026-07-28 client or stdio, or serve with MCP_SESSIONS=on.',
      );
    }
    const declared = era === 'modern' ? ((ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] ?? {}) as ClientCapabilities) : (server.getClientCapabilities() ?? {});
    if (!declared[kind]) return new ClientInputUnavailableError(kind, `this client does not support (it declared no ${kind} capability).`);
    if (what === 'elicitation.url' && !declared.elicitation?.url) return new ClientInputUnavailableError('elicitation', 'this client does not support sending the user to a URL (it declared no elicitation.url capability).');
    return undefined;
  };
}

/** The sealed `requestState` of a round: the answers so far, the identity of the call they belong to, and what the call keeps. */
interface SealedAnswers {
  answers: Record<string, unknown>;
  call: string;
  kept?: unknown;
}

/**
 * The 2026-07-28 way: each question has a key (its own, or by its order: `elicit-1`, `sample-2`).
 * An answer the retried request carries is returned; a missing one ends the call with
 * `input_required`. Answers already given ride along in `requestState`, since a retry carries only
 * the answers to the latest questions: sealed (HMAC, with an expiry) and bound to the caller, the
 * member and its arguments, so a client can neither alter them nor replay them on another call.
 * A question the client declared no capability for is never sent: the call is refused with
 * "missing required client capability" (-32021), as the revision says.
 */
function roundTrips(ctx: ServerContext, setup: RoundTripSetup): ClientInput {
  const identity = setup.identity();
  const earlier = earlierState(ctx, identity);
  const answers: Record<string, unknown> = { ...earlier?.answers, ...(ctx.mcpReq.inputResponses ?? {}) };
  const declared = (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as never] ?? {}) as ClientCapabilities;
  const round = new Round(answers, (all, kept) => setup.seal.mint({ answers: all, call: identity, ...(kept !== undefined && { kept }) } satisfies SealedAnswers));
  round.kept = earlier?.kept;
  const keys = new QuestionKeys();
  const ask = (kind: 'elicitation' | 'sampling' | 'roots', key: string, request: () => InputRequest): never => {
    if (!declared[kind]) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [kind]: {} } });
    round.requests[key] = request();
    throw new InputRequiredSignal(round);
  };
  return {
    elicit: async (params, options) => {
      const key = keys.next('elicit', options?.key);
      return answered<ElicitResult>(answers, key, 'elicit') ?? ask('elicitation', key, () => inputRequired.elicit(params as never));
    },
    sample: async (params, options) => {
      const key = keys.next('sample', options?.key);
      return answered<CreateMessageResult>(answers, key, 'sampling') ?? ask('sampling', key, () => inputRequired.createMessage(params));
    },
    listRoots: async (options) => {
      const key = keys.next('roots', options?.key);
      return answered<ListRootsResult>(answers, key, 'roots') ?? ask('roots', key, () => inputRequired.listRoots());
    },
    elicitUrl: async (params, options) => {
      const key = keys.next('elicit', options?.key);
      const answer = answered<ElicitResult>(answers, key, 'elicit');
      if (answer) return answer;
      // URL mode is its own capability: `elicitation: {}` alone means forms only.
      if (!declared.elicitation?.url) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { elicitation: { url: {} } } });
      return ask('elicitation', key, () => inputRequired.elicitUrl(params));
    },
    gathered: () => answers,
    keep: (state) => void (round.kept = state),
    kept: () => round.kept,
  };
}

/** Each way of asking: the prefix of its keys by order, and the kind of answer it takes. */
export const QUESTION_KINDS = {
  elicit: { prefix: 'elicit', answer: 'elicit', capability: 'elicitation' },
  elicitUrl: { prefix: 'elicit', answer: 'elicit', capability: 'elicitation.url' },
  sample: { prefix: 'sample', answer: 'sampling', capability: 'sampling' },
  roots: { prefix: 'roots', answer: 'roots', capability: 'roots' },
} as const;

/**
 * The answer `answers` holds for `key`, when it is one of `kind` (an elicitation result, a model's
 * message, a roots listing), in the shape the asking method returns; otherwise undefined.
 */
export function answered<T>(answers: Record<string, unknown>, key: string, kind: 'elicit' | 'sampling' | 'roots'): T | undefined {
  const answer = inputResponse(answers, key);
  if (answer.kind !== kind) return undefined;
  if (answer.kind === 'elicit') return { action: answer.action, ...(answer.content && { content: answer.content }) } as T;
  if (answer.kind === 'sampling') return answer.result as T;
  return { roots: (answer as { roots: unknown }).roots } as T;
}

/**
 * The answers a verified `requestState` carries (the SDK checked its seal and expiry before the
 * handler ran), or none when the request has no state. State made for another call is refused.
 */
function earlierState(ctx: ServerContext, identity: string): SealedAnswers | undefined {
  const state = ctx.mcpReq.requestState<SealedAnswers | string>();
  if (state === undefined) return undefined;
  if (typeof state !== 'object' || state === null || typeof state.answers !== 'object' || state.answers === null) {
    throw new RequestStateRefusal('echo back exactly the requestState of the last input_required answer.');
  }
  if (state.call !== identity) {
    throw new RequestStateRefusal('it was made for another call (another caller, tool or arguments); retry the call it came from, or start again without it.');
  }
  return state;
}
