import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/server';
import type { TokenExchangeRequest } from './token-exchange';
import type { ElicitationForm } from '../compiled/elicitation-form';
import type { ClassType } from '../types/class-type';
import type { Logger } from '../server/logging/logger';
import type { AuthContext } from './auth-context';
import type { ClientInput } from './client-requests';
import { RequestContext, type ClientInfo, type HeaderSource, type ProtocolEra, type TransportKind } from './request-context';
import type { TaskChannel } from './task-context';

/** Where one request comes from, as its RequestContext reports it. */
export interface RequestOrigin {
  transport: TransportKind;
  era: ProtocolEra;
  headers: HeaderSource;
  environment?: Readonly<Record<string, string | undefined>>;
  /** The client, as the request names it or it introduced itself. */
  client: () => ClientInfo | undefined;
  /** What the client declared it supports. */
  clientCapabilities?: () => ClientCapabilities | undefined;
  signal: AbortSignal;
  /** The task the call runs as, if it does. */
  task?: TaskChannel;
}

/** Where a request's progress and log lines go to its client (nowhere for a task's call: it reports through its status). */
export interface CallChannel {
  /** The token the client asked progress under, if it did. */
  readonly progressToken: string | number | undefined;
  notify(notification: { method: 'notifications/progress'; params: Record<string, unknown> }): Promise<void>;
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
}

/** How what a tool sends (progress, log lines, questions to the client) leaves: redacted, and logged too. */
export interface RequestOutlets {
  /** The server's logger for this request (its credential values already redacted). */
  logger: Logger;
  /** Hides the request's credential values in a text. */
  redact: (text: string) => string;
  /** Hides them anywhere in a value sent to the client. */
  redactValue: (value: unknown) => unknown;
  /** The client's elicitation and sampling, for this request's era and transport. */
  clientInput: () => ClientInput;
  /** Makes the call a task, taking the answers `input` gathered (`task.start()` of an `askFirst` tool). */
  startTask?: (input: ClientInput) => never;
  /** Token exchange for the call's verified caller. */
  exchangeToken?: (request: TokenExchangeRequest) => Promise<string>;
}

const SERVER_LOG_LEVEL: Record<LoggingLevel, keyof Logger> = {
  debug: 'info',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** The RequestContext of one SDK request into `toolset`'s member `member`. */
export function requestContextOf(
  toolset: { name: string; credentialHeaders: readonly string[] },
  member: string,
  channel: CallChannel,
  origin: RequestOrigin,
  outlets: RequestOutlets,
  elicitationForms: ReadonlyMap<ClassType, ElicitationForm> | undefined,
  auth: AuthContext,
): RequestContext {
  const progressToken = channel.progressToken;
  const { logger, redact, redactValue } = outlets;
  let input: ClientInput | undefined;
  // Every property written out (no spread): V8 keeps one object shape, and this runs on every call.
  return new RequestContext({
    transport: origin.transport,
    era: origin.era,
    headers: origin.headers,
    environment: origin.environment,
    toolset: toolset.name,
    tool: member,
    credentialHeaders: toolset.credentialHeaders,
    signal: origin.signal,
    client: origin.client,
    clientCapabilities: origin.clientCapabilities,
    sendProgress:
      progressToken === undefined
        ? undefined
        : (progress, total, message) =>
            channel.notify({
              method: 'notifications/progress',
              params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message: redact(message) }) },
            }),
    clientInput: () => (input ??= outlets.clientInput()),
    startTask: outlets.startTask && (() => outlets.startTask!((input ??= outlets.clientInput()))),
    elicitationForms,
    auth,
    exchangeToken: outlets.exchangeToken,
    task: origin.task,
    sendLog: (level, data) => {
      const clean = redactValue(data);
      logger[SERVER_LOG_LEVEL[level]]('tool log', { toolset: toolset.name, tool: member, level, data: clean });
      return channel.log(level, clean, toolset.name);
    },
  });
}
