import { createHash } from 'node:crypto';
import { isInputRequiredResult, ProtocolError, SdkError, SdkErrorCode, UriTemplate, type CallToolResult, type Client, type InputRequiredResult, type PriorDiscovery } from '@modelcontextprotocol/client';
import { resultCheck, stderrLogger, TokenExchangeError, ToolError, withContent, type ClassType, type ExtraContent, type Logger, type PromptMessage, type RequestContext, type ResourceBody, type ResourceWatcher, type ResultWithContent } from '@toolsets/core';
import { redact } from './secret-redaction';
import { UpstreamClosed, UpstreamConnection } from './upstream-connection';
import { askedParams, askingCall, callQuestions, MAX_INPUT_ROUNDS, relayQuestions, type Answered, type AskedParams } from './upstream-questions';
import type { Reached } from './task-relay';
import { relayUpstreamTask } from './upstream-task';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, redactionsOf, variablePrefix, type ResolvedUpstreamSettings, type UpstreamSettings } from './upstream-settings';

/** One call of a generated tool: which upstream tool, with what, and what its answer is. */
export interface UpstreamToolCall {
  /** The tool's name on the upstream (a curated or prefixed tool keeps calling it by this name). */
  tool: string;
  args?: object;
  /**
   * `structured`: the upstream declares an output schema; its `structuredContent` becomes `data`.
   * `content`: it declares none; its text becomes `message`, other blocks are attached as they came.
   */
  output: 'structured' | 'content';
  /** The tool's result class, when its answers are lenient (`mcp.config.json` `lenient`). */
  lenient?: ClassType;
  /**
   * The upstream runs the tool as a task (its `execution.taskSupport`): when the caller's call is a
   * task, so is the upstream's, followed to its end (see `relayUpstreamTask`).
   */
  task?: 'optional' | 'required';
}

/** A generated toolset whose upstream completes arguments: what its arguments' `@Complete` call. */
export interface UpstreamCompleting {
  completeUpstream(ref: { prompt: string } | { uriTemplate: string }, argument: string, value: string, args: Readonly<Record<string, string>>): Promise<string[]>;
}

/**
 * The `ResourceWatcher` a generated library registers under `RESOURCE_WATCHERS`: it hands a URI to
 * the library's `McpUpstream` (resolved only then) when the URI is one of the upstream's resources
 * the library serves, so a library imported but not served, or its settings, never get in the way
 * of another's subscriptions.
 */
export function upstreamResourceWatcher(settings: Pick<UpstreamSettings, 'watchable'>, upstream: () => McpUpstream): ResourceWatcher {
  return {
    watch: (uri, changed) => (isWatchable(settings.watchable, uri) ? upstream().watch(uri, changed) : undefined),
    unwatch: (uri, changed) => (isWatchable(settings.watchable, uri) ? upstream().unwatch(uri, changed) : undefined),
  };
}

/** Whether `uri` is one of the upstream's resources the library serves, or matches one of its templates (one that does not parse matches nothing). */
function isWatchable(watchable: UpstreamSettings['watchable'], uri: string): boolean {
  if (watchable?.uris?.includes(uri)) return true;
  return (watchable?.uriTemplates ?? []).some((template) => {
    try {
      return new UriTemplate(template).match(uri) !== null;
    } catch {
      return false;
    }
  });
}

/** What a generated tool returns on an answer: its result class's shape. */
export interface UpstreamResult {
  message: string;
  /** The upstream's `structuredContent` (tools that declare an output schema). */
  data?: unknown;
  /** A lenient tool's answer that does not fit the upstream's own output schema, in place of `data`. */
  unchecked?: unknown;
  /** What in a lenient tool's answer did not fit. */
  note?: string;
}

/** The most of an upstream's own text an error's detail or a result's message carries. */
const MAX_DETAIL = 500;
const MAX_MESSAGE = 4_000;
/** The deepest JSON an answer may nest before it is refused (validating deeper costs the server, helps no model). */
const MAX_DEPTH = 64;
/** The most connections kept for distinct caller credentials; the least recently used is closed past it. */
const MAX_CALLER_CONNECTIONS = 64;
/** The most problems a lenient answer's note names. */
const MAX_NOTED_PROBLEMS = 3;

/**
 * What toolsets generated from an upstream MCP server call: one shared connection (see
 * `UpstreamConnection`), one `tools/call` per call with the call's cancellation and a deadline,
 * the upstream's progress passed on to the caller. Answers come back typed (the framework then
 * checks `data` against the upstream's own output schema); failures of every kind (an `isError`
 * answer, a refusal, a timeout, a lost connection, garbage) come back as `ToolError`s whose text is
 * bounded and never carries the upstream's credentials. The caller's own credentials never go upstream.
 */
export class McpUpstream implements ResourceWatcher {
  /** The app's connection; with caller credentials, one per distinct credential (least recently used first). */
  private readonly connections = new Map<string, UpstreamConnection>();
  /** The upstream's resources a caller of some server watches, each with what to tell when it changes. */
  private readonly watchers = new Map<string, Set<() => Promise<void>>>();
  private readonly timeoutMs: number;
  private readonly maxResultBytes: number;

  constructor(
    private readonly settings: ResolvedUpstreamSettings,
    private readonly prior?: PriorDiscovery,
    private readonly logger: Logger = stderrLogger,
  ) {
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResultBytes = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  }

  /**
   * A caller subscribed to `uri` (`ResourceWatcher`, told by core): where it is one of the
   * upstream's resources this library serves, the app subscribes to it upstream, on its own
   * connection, once for every server watching it, and passes each update on through `changed`.
   * An upstream reached with each caller's credentials is not subscribed to: its updates could not
   * be told apart per caller.
   */
  async watch(uri: string, changed: () => Promise<void>): Promise<void> {
    if (!isWatchable(this.settings.watchable, uri)) return;
    if (this.settings.callerCredentials?.length || this.settings.identity?.kind === 'exchange') {
      this.logger.warn('a resource subscription is not passed to an upstream MCP server reached with each caller\'s credentials', { upstream: this.settings.name, uri: uri.slice(0, 200) });
      return;
    }
    const told = this.watchers.get(uri) ?? new Set();
    this.watchers.set(uri, told.add(changed));
    if (told.size === 1) await this.connectionFor(undefined).watch(uri, (updated) => this.changed(updated));
  }

  /** No caller of `changed`'s server watches `uri` any more; with none left at all, the app unsubscribes upstream. */
  async unwatch(uri: string, changed: () => Promise<void>): Promise<void> {
    const told = this.watchers.get(uri);
    if (!told?.delete(changed) || told.size > 0) return;
    this.watchers.delete(uri);
    await this.connectionFor(undefined).unwatch(uri);
  }

  private changed(uri: string): void {
    for (const changed of this.watchers.get(uri) ?? []) void changed().catch(() => undefined);
  }


  /** `logger`: the call's own (a toolset's injected `LOGGER`, which redacts the caller's credentials). */
  async call(call: UpstreamToolCall, context: RequestContext, logger: Logger = this.logger): Promise<UpstreamResult | ResultWithContent<UpstreamResult> | ToolError> {
    if (call.task && context.task.isTask) {
      const relayed = await relayUpstreamTask({ tool: call.tool, ...(call.args && { args: call.args }), task: call.task }, context, this.taskPort(call, context, logger), this.timeoutMs);
      if (relayed !== undefined) return this.settled(call, relayed, logger);
    }
    let reached;
    try {
      reached = await this.rounds<CallToolResult | ToolError>(call.tool, context, async (client, signal, connection, asked) => {
        const drift = connection.drift(call.tool);
        if (drift) return this.drifted(call, drift);
        return client.callTool(
          { name: call.tool, arguments: { ...(call.args as Record<string, unknown> | undefined) }, ...asked },
          {
            signal,
            timeout: this.timeoutMs,
            allowInputRequired: true,
            // The upstream's progress is asked for only when the caller asked for the call's.
            ...(context.wantsProgress && { onprogress: (progress) => void context.progress(progress.progress, progress.total, progress.message).catch(() => undefined) }),
          },
        );
      });
    } catch (error) {
      // A tool's failures are its result; anything else (the caller's own input_required round) goes on up.
      if (error instanceof ToolError) return error;
      throw error;
    }
    return this.settled(call, reached, logger);
  }

  /** What a call's request to the upstream ended with, as the tool's result. */
  private settled(call: UpstreamToolCall, reached: Reached<CallToolResult | ToolError>, logger: Logger): UpstreamResult | ResultWithContent<UpstreamResult> | ToolError {
    if (reached instanceof ToolError) return reached;
    if ('failed' in reached) return this.failed(call.tool, reached.failed, reached.timedOut, logger, reached.redacting);
    return reached.answer instanceof ToolError ? reached.answer : this.answered(call, reached.answer, logger, reached.redacting);
  }

  /** What relaying the call as an upstream task uses: this upstream's requests, drift check and log. */
  private taskPort(call: UpstreamToolCall, context: RequestContext, logger: Logger) {
    return {
      name: this.settings.name,
      send: <T>(request: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<T>, options?: { timeoutMs?: number; detached?: boolean }) => this.reach(context, request, options),
      drifted: (connection: UpstreamConnection) => {
        const drift = connection.drift(call.tool);
        return drift ? this.drifted(call, drift) : undefined;
      },
      log: (message: string, fields: Record<string, unknown>) => logger.info(message, fields),
    };
  }

  /**
   * One of the upstream's prompts, with the arguments given (`prompts/get`), as the generated
   * `@Prompt` returns it. A failure is thrown as a `ToolError`, which the client gets as the
   * request's error with the same words a tool's would carry.
   */
  async getPrompt(name: string, args: Record<string, string | undefined>, context: RequestContext, logger: Logger = this.logger): Promise<PromptMessage[]> {
    const answer = await this.member(`prompt ${name}`, context, logger, (client, signal, asked) => client.getPrompt({ name, arguments: given(args), ...asked }, { signal, timeout: this.timeoutMs, allowInputRequired: true }));
    return answer.messages.map((message) => ({ role: message.role, content: message.content })) as PromptMessage[];
  }

  /** One of the upstream's resources (`resources/read`), as the generated `@Resource` returns it: its first contents, text or bytes. */
  async readResource(uri: string, context: RequestContext, logger: Logger = this.logger): Promise<ResourceBody> {
    const answer = await this.member(`resource ${uri}`, context, logger, (client, signal, asked) => client.readResource({ uri, ...asked }, { signal, timeout: this.timeoutMs, allowInputRequired: true }));
    const [first] = answer.contents;
    if (!first) throw new ToolError('upstream_invalid_response', `The upstream MCP server of ${this.settings.name} answered ${uri} with no contents.`);
    const mimeType = typeof first.mimeType === 'string' ? { mimeType: first.mimeType } : {};
    if ('text' in first && typeof first.text === 'string') return { text: first.text, ...mimeType };
    if ('blob' in first && typeof first.blob === 'string') return { blob: Buffer.from(first.blob, 'base64'), ...mimeType };
    throw new ToolError('upstream_invalid_response', `The upstream MCP server of ${this.settings.name} answered ${uri} with contents that are neither text nor a blob.`);
  }

  /** A resource of one of the upstream's templates (`users://{id}`), its variables filled from `args` (RFC 6570, as the SDK expands them). */
  readTemplate(uriTemplate: string, args: Record<string, string | undefined>, context: RequestContext, logger: Logger = this.logger): Promise<ResourceBody> {
    return this.readResource(new UriTemplate(uriTemplate).expand(given(args)), context, logger);
  }

  /**
   * The upstream's completions for an argument of one of its prompts or resource templates
   * (`completion/complete`), as a generated `@Complete` returns them: the caller's credentials and
   * the other arguments filled in so far go with it. A failure is thrown as a `ToolError`, which
   * the client gets as the request's error.
   */
  async complete(ref: { prompt: string } | { uriTemplate: string }, argument: string, value: string, args: Readonly<Record<string, string>>, context: RequestContext, logger: Logger = this.logger): Promise<string[]> {
    const what = 'prompt' in ref ? `completing '${argument}' of prompt ${ref.prompt}` : `completing '${argument}' of resource template ${ref.uriTemplate}`;
    const sent = 'prompt' in ref ? { type: 'ref/prompt' as const, name: ref.prompt } : { type: 'ref/resource' as const, uri: ref.uriTemplate };
    const answer = await this.member(what, context, logger, (client, signal, asked) =>
      client.complete({ ref: sent, argument: { name: argument, value }, ...(Object.keys(args).length > 0 && { context: { arguments: { ...args } } }), ...asked }, { signal, timeout: this.timeoutMs }),
    );
    return [...answer.completion.values];
  }

  /**
   * A prompt or resource request: its answer without the credentials it was sent (as a tool's),
   * else a thrown `ToolError` saying what failed (bounded, redacted).
   */
  private async member<T extends object>(what: string, context: RequestContext, logger: Logger, request: (client: Client, signal: AbortSignal, asked: AskedParams) => Promise<T>): Promise<Exclude<T, InputRequiredResult>> {
    const reached = await this.rounds(what, context, (client, signal, _connection, asked) => request(client, signal, asked));
    if (reached instanceof ToolError) throw reached;
    if ('failed' in reached) throw this.failed(what, reached.failed, reached.timedOut, logger, reached.redacting);
    const tooBig = this.outOfBounds(reached.answer);
    if (tooBig) throw tooBig;
    return redactDeep(reached.answer, reached.redacting);
  }

  /**
   * `request`, made again until the upstream answers without asking: a 2026-07-28 upstream asks in
   * an `input_required` answer, whose questions are relayed to the caller between rounds, outside
   * `reach` (its deadline and its failures are the upstream's), and answered with the next request
   * (`asked`: the caller's capabilities and the answers so far). Past MAX_INPUT_ROUNDS, or on a
   * question that cannot be passed on, a thrown `ToolError`.
   */
  private async rounds<T extends object>(
    what: string,
    context: RequestContext,
    request: (client: Client, signal: AbortSignal, connection: UpstreamConnection, asked: AskedParams) => Promise<T>,
  ): Promise<Reached<Exclude<T, InputRequiredResult>>> {
    let answered: Answered | undefined;
    for (let round = 1; ; round += 1) {
      const reached = await this.reach(context, (client, signal, connection) => request(client, signal, connection, askedParams(client, context, answered)));
      if (reached instanceof ToolError || 'failed' in reached || !isInputRequiredResult(reached.answer)) return reached as Reached<Exclude<T, InputRequiredResult>>;
      if (round >= MAX_INPUT_ROUNDS) {
        throw new ToolError('upstream_error', `The upstream MCP server of ${this.settings.name} asked for input ${MAX_INPUT_ROUNDS} times during ${what} without answering; the request was given up.`);
      }
      const { inputRequests, requestState } = reached.answer;
      answered = { inputResponses: await relayQuestions(what, inputRequests ?? {}, context), ...(requestState !== undefined && { requestState }) };
    }
  }

  /**
   * Runs `request` on the connection for this caller's credentials, bounded by the deadline and the
   * caller's cancellation: one controller per request, let go of when it ends (no listener stays on
   * the caller's signal, no timer outlives it). The answer, or what it failed with and whether the
   * deadline passed; a `ToolError` when no credential for the upstream could be had.
   */
  private async reach<T>(context: RequestContext, request: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<T>, options: { timeoutMs?: number; detached?: boolean } = {}): Promise<Reached<T>> {
    // The caller's own credentials (a missing one throws core's error naming its header) and what redacts them.
    const callers = this.callerSecrets(context);
    const delegated = await this.exchangedAuthorization(context);
    if (delegated instanceof ToolError) return delegated;
    const secrets = callers || delegated ? { ...callers, ...delegated } : undefined;
    const connection = this.connectionFor(secrets);
    const redacting = { ...redactionsOf(this.settings), ...secrets };
    const controller = new AbortController();
    let timedOut = false;
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const cancel = () => controller.abort(context.signal.reason);
    // A detached request (cancelling upstream what the caller cancelled) is bounded by its deadline only.
    if (!options.detached) {
      if (context.signal.aborted) cancel();
      else context.signal.addEventListener('abort', cancel, { once: true });
    }
    // What a 2025-era upstream asks on this request's own stream goes to this caller; a 2026-07-28 caller's round ends the request.
    let interrupted: { reason: unknown } | undefined;
    try {
      const client = await connection.client(controller.signal);
      // Only where a question can be told apart by the request it came with: Node's async context tracking costs every promise of the process once it runs.
      const send = () => request(client, controller.signal, connection);
      const answer = await (connection.attributesQuestions(client)
        ? askingCall.run(
            callQuestions(`a request to the upstream MCP server of ${this.settings.name}`, context, (reason) => {
              interrupted = { reason };
              controller.abort(reason);
            }),
            send,
          )
        : send());
      if (interrupted) throw interrupted.reason;
      connection.healthy();
      return { answer, redacting };
    } catch (error) {
      if (interrupted) throw interrupted.reason;
      return { failed: error, timedOut, redacting };
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', cancel);
    }
  }

  /**
   * With `identity` `exchange`: the upstream's `authorization`, a token exchanged from the caller's
   * own for the upstream (its URL as the resource, unless an audience is set); a refused exchange is
   * a ToolError saying why, and no call is made.
   */
  private async exchangedAuthorization(context: RequestContext): Promise<Record<string, string> | ToolError | undefined> {
    const identity = this.settings.identity;
    if (identity?.kind !== 'exchange' || this.settings.transport.kind !== 'http') return undefined;
    try {
      const token = await context.exchangeToken({ ...(identity.audience ? { audience: identity.audience } : { resource: this.settings.transport.url }), ...(identity.scope && { scope: identity.scope }) });
      return { authorization: `Bearer ${token}` };
    } catch (error) {
      if (!(error instanceof TokenExchangeError)) throw error;
      return new ToolError('upstream_unauthorized', `No token for the upstream MCP server of ${this.settings.name} could be had on your behalf, so the call was not made. ${error.message}`);
    }
  }

  /** The upstream headers of the caller's credentials, or undefined when the upstream takes none from callers. */
  private callerSecrets(context: RequestContext): Record<string, string> | undefined {
    const declared = this.settings.callerCredentials;
    if (!declared?.length) return undefined;
    const secrets: Record<string, string> = {};
    for (const credential of declared) {
      const value = context.credential(credential.header);
      secrets[credential.upstreamHeader] = credential.bearer ? `Bearer ${value}` : value;
    }
    return secrets;
  }

  /** The connection for these caller secrets: the app's one, or one per distinct credential, at most MAX_CALLER_CONNECTIONS kept. */
  private connectionFor(secrets: Record<string, string> | undefined): UpstreamConnection {
    const key = secrets ? createHash('sha256').update(JSON.stringify(secrets)).digest('hex') : '';
    let connection = this.connections.get(key);
    if (connection) {
      // Most recently used last.
      this.connections.delete(key);
      this.connections.set(key, connection);
      return connection;
    }
    connection = new UpstreamConnection(secrets ? { ...this.settings, secrets: { ...this.settings.secrets, ...secrets } } : this.settings, this.prior, this.logger);
    this.connections.set(key, connection);
    if (this.connections.size > MAX_CALLER_CONNECTIONS) {
      const [oldest, stale] = this.connections.entries().next().value as [string, UpstreamConnection];
      this.connections.delete(oldest);
      void stale.close();
    }
    return connection;
  }

  /** A call to a tool the upstream removed or changed since the library was generated: refused, with what to do. */
  private drifted(call: UpstreamToolCall, kind: 'removed' | 'changed'): ToolError {
    const what = kind === 'removed' ? 'no longer offers' : 'changed what it takes or returns for';
    return new ToolError(
      'upstream_changed',
      `The upstream MCP server of ${this.settings.name} ${what} ${call.tool} since this server was built, so the call was not made: the answer could not be checked against the contract it advertises. ` +
        `Use another tool; the operator regenerates the library (nx run <library>:mcp-refresh).`,
    );
  }

  /** Ends every connection (a stdio upstream's child process exits). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }

  private answered(call: UpstreamToolCall, answer: CallToolResult, logger: Logger, secrets: Record<string, string>): UpstreamResult | ResultWithContent<UpstreamResult> | ToolError {
    const tooBig = this.outOfBounds(answer);
    if (tooBig) return tooBig;
    // The credentials the upstream was sent never reach the caller, whatever it echoes (an environment dump, a debug tool).
    answer = redactDeep(answer, secrets);
    const content = Array.isArray(answer.content) ? answer.content : [];
    const text = content.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n');
    // An error is passed on as the upstream said it, never checked against the success schema.
    if (answer.isError) return new ToolError('upstream_error', `The upstream tool ${call.tool} failed: ${bounded(text, MAX_DETAIL, secrets).replace(/\.+$/, '') || 'it gave no reason'}.`);
    const others = content.filter((block) => block.type !== 'text') as ExtraContent[];
    let result: UpstreamResult;
    if (call.output === 'structured') {
      const data = answer.structuredContent;
      if (data === undefined || data === null) {
        logger.warn('upstream answer not usable', { upstream: this.settings.name, tool: call.tool, reason: 'no structuredContent although the tool declares an output schema' });
        return new ToolError('upstream_invalid_response', `The upstream tool ${call.tool} answered without the structured result its output schema promises. Try again; if it persists, the upstream MCP server is misbehaving.`);
      }
      result = { message: looksLikeJson(text) || text === '' ? `The upstream tool ${call.tool} answered.` : bounded(text, MAX_MESSAGE, secrets), data };
      if (call.lenient) result = this.lenient(call, call.lenient, result, logger);
    } else {
      result = { message: bounded(text, MAX_MESSAGE, secrets) || `The upstream tool ${call.tool} answered${others.length ? ` with ${others.length} content block${others.length === 1 ? '' : 's'}` : ' with nothing'}.` };
    }
    return others.length ? withContent(result, ...others) : result;
  }

  /** An answer over the size or depth bound: refused before anything validates it. */
  private outOfBounds(answer: unknown): ToolError | undefined {
    if (depthOver(answer, MAX_DEPTH)) return new ToolError('upstream_invalid_response', `The upstream MCP server's answer nests deeper than ${MAX_DEPTH} levels, so it was not passed on.`);
    const bytes = Buffer.byteLength(JSON.stringify(answer));
    if (bytes <= this.maxResultBytes) return undefined;
    return new ToolError(
      'upstream_too_large',
      `The upstream MCP server's answer is ${bytes} bytes, more than the ${this.maxResultBytes} this server passes on. Ask for less, or have the operator raise ${variablePrefix(this.settings.name)}_MAX_RESULT_BYTES.`,
    );
  }

  /** A lenient tool's answer: as it is when it fits; else passed on as `unchecked` with a `note` naming what did not fit (paths and rules, never values). */
  private lenient(call: UpstreamToolCall, resultClass: ClassType, result: UpstreamResult, logger: Logger): UpstreamResult {
    const problems = resultCheck(resultClass)(result);
    if (problems.length === 0) return result;
    const shown = problems.slice(0, MAX_NOTED_PROBLEMS);
    logger.warn('upstream answer does not match its output schema; passed on unchecked (lenient)', { upstream: this.settings.name, tool: call.tool, problems: shown });
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
    return {
      message: `${result.message} The answer does not match the upstream tool's own output schema, so it comes as \`unchecked\` instead of \`data\`.`,
      unchecked: result.data,
      note: `Not as the upstream's output schema says: ${shown.map((problem) => problem.replace(/^\/data/, '') || '/').join('; ')}${more}.`,
    };
  }

  /** What a request for `what` (a tool's name, `prompt x`, `resource uri`) failed with, as a ToolError the caller can act on. */
  private failed(what: string, error: unknown, timedOut: boolean, logger: Logger, secrets: Record<string, string>): ToolError {
    const upstream = `the upstream MCP server of ${this.settings.name}`;
    const seconds = `${Math.round(this.timeoutMs / 100) / 10} s`;
    if (timedOut || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)) {
      return new ToolError('upstream_timeout', `${cap(upstream)} did not answer ${what} within ${seconds}. Try again later, or ask for less.`);
    }
    if (error instanceof UpstreamClosed) return new ToolError('upstream_unavailable', `${cap(upstream)} is closed: this server is shutting down.`);
    if (error instanceof ProtocolError) {
      // The upstream refused the request itself (unknown tool, invalid arguments): its own words, bounded and redacted.
      return new ToolError('upstream_refused', `${cap(upstream)} refused ${what} (${error.code}): ${bounded(error.message, MAX_DETAIL, secrets)}`);
    }
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof SdkError && (error.code === SdkErrorCode.InvalidResult || error.code === SdkErrorCode.UnsupportedResultType)) {
      logger.warn('upstream answer not usable', { upstream: this.settings.name, tool: what, reason: redact(reason, secrets) });
      return new ToolError('upstream_invalid_response', `${cap(upstream)} answered ${what} with something that is not a valid answer. Try again; if it persists, the upstream MCP server is misbehaving.`);
    }
    const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
    if (!(error instanceof SdkError) && (error as { name?: string } | null)?.name === 'AbortError') {
      return new ToolError('cancelled', `The call to ${what} was cancelled.`);
    }
    logger.warn('upstream MCP call failed', { upstream: this.settings.name, tool: what, reason: redact(reason, secrets) });
    return new ToolError(
      'upstream_unavailable',
      closed
        ? `${cap(upstream)} closed the connection during ${what} (it may have stopped); it is reconnected on the next call. Try again.`
        : `${cap(upstream)} could not be reached for ${what}. Try again later; the server log says why.`,
    );
  }

}

/** The answer with every string in it redacted of the credentials the upstream was sent (the depth is bounded before this runs). */
function redactDeep<T>(answer: T, secrets: Record<string, string>): T {
  if (Object.keys(secrets).length === 0) return answer;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redact(value, secrets);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  return walk(answer) as T;
}

/** The arguments given a value (an optional one left out is not sent). */
function given(args: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The upstream's text, at most `max` characters, without the credentials it was sent. */
function bounded(text: string, max: number, secrets: Record<string, string>): string {
  const clean = redact(text, secrets).trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A text block that is only the structured result again (most servers send both): not a message. */
function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** Whether `value` nests deeper than `max` levels (checked without recursion, so a hostile answer cannot overflow the stack). */
function depthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
