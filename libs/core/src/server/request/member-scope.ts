import type { DependencyContainer } from 'tsyringe';
import { RequestContext } from '../../context/request-context';
import { requestContextOf } from '../../context/request-context-of';
import type { CompiledToolset } from '../../compiled/tool-catalog';
import type { ClassType } from '../../types/class-type';
import type { Logger } from '../logging/logger';
import { LOGGER } from '../logging/logger-token';
import { NO_REDACTION, redactingLogger, redactorFor, redactValue, type Redactor } from '../logging/redaction';
import type { ToolsetInstantiator } from '../tools/tool-call';
import type { ClientInput } from '../../context/client-requests';
import { clientInput } from './sdk-client-input';
import { callIdentity, type RequestStateSeal } from './request-state';
import { StartTaskSignal } from './start-task';
import { AuthContext } from '../../context/auth-context';
import { exchangeTokenFor, type TokenExchangeRequest } from '../../context/token-exchange';
import { credentialsOf, type CallOrigin } from './call-origin';
import type { Call } from './call';
import type { ElicitationForm } from '../../compiled/elicitation-form';
import { TaskContext, type TaskRun } from '../../context/task-context';
import type { InnerRun } from './program-input';

export type { CallSite, ServingSite } from './call-site';

/** Built once per server definition: what every call into a toolset needs that does not vary per call. */
export interface RequestRoots {
  root: DependencyContainer;
  /** Toolsets with no constructor parameters: built with `new` while nothing is registered for them. */
  direct: ReadonlySet<ClassType>;
  logger: Logger;
  /** Seals the `requestState` of 2026-07-28 multi round-trips. */
  requestState: RequestStateSeal;
}

/** How one request reaches a toolset member (tool, prompt, resource): its instance and its logger. */
export interface MemberScope {
  instantiate: ToolsetInstantiator;
  /** The server's logger with this request's credential values redacted. */
  logger: Logger;
  /** Resolves a class (an interceptor) from the same per-request container the toolset comes from. */
  resolve<T>(cls: new (...args: never[]) => T): T;
  /** Hides this request's credential values in anything sent or logged. */
  redact: Redactor;
  /** The request's origin: who calls, over which transport, with which credentials. */
  origin: CallOrigin;
}

/** What varies between the calls of one request into a member. */
export interface MemberCallOptions {
  /** The classes its arguments may ask the client for (`@Elicit`), by class. */
  forms?: ReadonlyMap<ClassType, ElicitationForm>;
  /** The call's own signal, when interceptors may abort it; else the call's. Asked for when its RequestContext is made. */
  signal?: () => AbortSignal;
  /**
   * The task the call runs as: its questions to the client go through the task. Or the code-mode
   * program it runs for: its questions go through the program (`programCallInput`).
   */
  run?: TaskRun | InnerRun;
}

/**
 * The scope of `call` into `toolset`'s member `member`: a toolset instance made for it (in a
 * child container holding its RequestContext), and a logger that cannot show its credentials.
 */
export function memberScope(definition: RequestRoots, call: Call, toolset: CompiledToolset, member: string, options: MemberCallOptions = {}): MemberScope {
  const { origin } = call;
  const { forms, signal, run: task } = options;
  const redact = redactorOf(toolset, origin);
  const logger = redactingLogger(definition.logger, redact);
  const cls = toolset.cls as new () => Record<string, (input: unknown) => unknown>;
  let container: DependencyContainer | undefined;
  // One child container per request, made when first needed: it holds the request's RequestContext.
  const scoped = () => {
    if (container) return container;
    container = definition.root.createChildContainer();
    const where = { transport: origin.transport, era: origin.era, headers: origin.headers, environment: origin.environment, client: origin.client, clientCapabilities: origin.clientCapabilities, signal: signal ? signal() : (task?.signal ?? call.signal), task: task && 'channel' in task ? task.channel : undefined };
    const auth = AuthContext.of(origin.caller);
    const outlets = {
      logger,
      redact,
      redactValue: (value: unknown) => redactValue(value, redact),
      ...(!task && call.startsAsTask && { startTask: startTask }),
      exchangeToken: (request: TokenExchangeRequest) => exchangeTokenFor(origin.caller, request),
      clientInput: () => redactedInput(task ? task.input : clientInput(call.request!, call.server, where.era, where.transport, { seal: definition.requestState, identity: () => callIdentity(call, principalOf(toolset.credentialHeaders, origin), `${toolset.name}.${member}`) }), redact),
    };
    container.register(RequestContext, { useValue: requestContextOf(toolset, member, call, where, outlets, forms, auth) });
    container.register(AuthContext, { useValue: auth });
    container.register(TaskContext, { useFactory: (c) => c.resolve(RequestContext).task });
    if (logger !== definition.logger) container.register(LOGGER, { useValue: logger });
    return container;
  };
  // Checked per call, so a class the app registers after buildServer still comes from the container.
  const instantiate = definition.direct.has(cls) && !definition.root.isRegistered(cls as never, true) ? () => new cls() : () => scoped().resolve(cls);
  // An interceptor whose constructor takes nothing needs no container either, unless the app registered it.
  const resolve = <T>(target: new (...args: never[]) => T): T => (target.length === 0 && !definition.root.isRegistered(target as never, true) ? new target() : scoped().resolve(target as never));
  return { instantiate, logger, resolve, redact, origin };
}

/**
 * The request's own credential values, so nothing it sends or logs can show them (the verified
 * access token never gets this far: the mount's door removes it from the headers). Built on first
 * use: most calls carry no secret into their output.
 */
function redactorOf(toolset: CompiledToolset, origin: CallOrigin): Redactor {
  if (toolset.credentialHeaders.length === 0) return NO_REDACTION;
  let redact: Redactor | undefined;
  return (text) => (redact ??= redactorFor(credentialsOf(origin, toolset.credentialHeaders)))(text);
}

/** `task.start()` of an `askFirst` tool whose client wants a task: the call becomes one, with the answers it gathered. */
function startTask(input: ClientInput): never {
  throw new StartTaskSignal(input.gathered?.() ?? {});
}

/**
 * Who a call's sealed `requestState` belongs to: the verified token's subject, else the values of
 * the declared credentials (a toolset's, or all of code mode's) (hashed with the rest), else the 2025-era session; anonymous
 * callers share one principal, and the arguments and member still bind the state.
 */
export function principalOf(credentialHeaders: readonly string[], origin: CallOrigin): string {
  if (origin.caller) return `token:${String(origin.caller.claims['iss'] ?? '')}|${origin.caller.subject ?? ''}|${origin.caller.clientId ?? ''}`;
  const credentials = credentialsOf(origin, credentialHeaders);
  if (credentials.length > 0) return `credentials:${JSON.stringify(credentials)}`;
  return origin.sessionId ? `session:${origin.sessionId}` : 'anonymous';
}

/** Elicitation messages and sampling prompts reach the client too: the request's secrets stay out of them. */
function redactedInput(input: ClientInput, redact: Redactor): ClientInput {
  if (redact === NO_REDACTION) return input;
  return {
    elicit: (params, options) => input.elicit(redactValue(params, redact) as typeof params, options),
    sample: (params, options) => input.sample(redactValue(params, redact) as typeof params, options),
    listRoots: (options) => input.listRoots(options),
    elicitUrl: (params, options) => input.elicitUrl(redactValue(params, redact) as typeof params, options),
    ...(input.gathered && { gathered: () => input.gathered!() }),
  };
}
