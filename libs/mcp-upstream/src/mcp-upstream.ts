import { createHash } from 'node:crypto';
import { isInputRequiredResult, specTypeSchemas, UriTemplate, type CallToolResult, type Client, type InputRequiredResult, type PriorDiscovery, type Progress } from '@modelcontextprotocol/client';
import { stderrLogger, TokenExchangeError, ToolError, type Logger, type PromptMessage, type RequestContext, type ResourceBody, type ResourceWatcher, type ResultWithContent } from '@toolsets/core';
import { answeredCall, answeredMember, failedRequest, type AnswerCheck } from './upstream-answers';
import type { UpstreamResult, UpstreamToolCall } from './upstream-tool-call';
import { UpstreamConnection } from './upstream-connection';
import { askedParams, askingCall, callQuestions, MAX_INPUT_ROUNDS, relayQuestions, type Answered, type AskedParams } from './upstream-questions';
import type { Reached } from './task-relay';
import { relayUpstreamTask } from './upstream-task';
import { isWatchable } from './upstream-resource-watcher';
import { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, redactionsOf, type ResolvedUpstreamSettings } from './upstream-settings';

/** A generated toolset whose upstream completes arguments: what its arguments' `@Complete` call. */
export interface UpstreamCompleting {
  completeUpstream(ref: { prompt: string } | { uriTemplate: string }, argument: string, value: string, args: Readonly<Record<string, string>>): Promise<string[]>;
}

/** The most connections kept for distinct caller credentials; the least recently used is closed past it. */
const MAX_CALLER_CONNECTIONS = 64;

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
  /** The upstream's own credentials, never passed on to a caller. */
  private readonly redactions: Record<string, string>;

  constructor(
    private readonly settings: ResolvedUpstreamSettings,
    private readonly prior?: PriorDiscovery,
    private readonly logger: Logger = stderrLogger,
  ) {
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResultBytes = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    this.redactions = redactionsOf(settings);
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
        const params = { name: call.tool, arguments: { ...(call.args as Record<string, unknown> | undefined) }, ...asked };
        const options = {
          signal,
          timeout: this.timeoutMs,
          // The upstream's progress is asked for only when the caller asked for the call's.
          ...(context.wantsProgress && { onprogress: (progress: Progress) => void context.progress(progress.progress, progress.total, progress.message).catch(() => undefined) }),
        };
        // A 2026-07-28 upstream through callTool, which mirrors declared arguments into headers and
        // takes input_required rounds. A 2025-era one through request() with the result's schema:
        // callTool adds only its own check of structuredContent against the tool's output schema,
        // which answeredCall makes against the pinned contract, and, without a schema, a probe of the
        // method's result schema that fails and formats a Zod error on every call (BENCHMARKS.md §19).
        return client.getProtocolEra() === 'modern'
          ? client.callTool(params, { ...options, allowInputRequired: true })
          : client.request({ method: 'tools/call', params }, specTypeSchemas.CallToolResult, options);
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
    if ('failed' in reached) return failedRequest(call.tool, reached, this.check(logger, reached.redacting));
    return reached.answer instanceof ToolError ? reached.answer : answeredCall(call, reached.answer, this.check(logger, reached.redacting));
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
    if ('failed' in reached) throw failedRequest(what, reached, this.check(logger, reached.redacting));
    return answeredMember(reached.answer, this.check(logger, reached.redacting));
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
      const reached = await this.reach(context, (client, signal, connection) => request(client, signal, connection, askedParams(client, context, answered)), { ownCall: true });
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
  private async reach<T>(
    context: RequestContext,
    request: (client: Client, signal: AbortSignal, connection: UpstreamConnection) => Promise<T>,
    // ownCall: the caller's own call, prompt or read (not a relayed task's request, whose questions name their task).
    options: { timeoutMs?: number; detached?: boolean; ownCall?: boolean } = {},
  ): Promise<Reached<T>> {
    // The caller's own credentials (a missing one throws core's error naming its header) and what redacts them.
    const callers = this.callerSecrets(context);
    const delegated = await this.exchangedAuthorization(context);
    if (delegated instanceof ToolError) return delegated;
    const secrets = callers || delegated ? { ...callers, ...delegated } : undefined;
    const connection = this.connectionFor(secrets);
    const redacting = secrets ? { ...this.redactions, ...secrets } : this.redactions;
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
      const questions = () =>
        callQuestions(`a request to the upstream MCP server of ${this.settings.name}`, context, (reason) => {
          interrupted = { reason };
          controller.abort(reason);
        });
      const answer = await (connection.attributesQuestions(client)
        ? askingCall.run(questions(), send)
        : options.ownCall && connection.oneCallAtATime
          ? connection.alone(questions(), controller.signal, send)
          : send());
      if (interrupted) throw interrupted.reason;
      connection.healthy();
      return { answer, redacting };
    } catch (error) {
      if (interrupted) throw interrupted.reason;
      return { failed: error, timedOut, timeoutMs, redacting };
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

  /** What checking an answer to a request of this upstream needs. */
  private check(logger: Logger, secrets: Record<string, string>): AnswerCheck {
    return { upstream: this.settings.name, maxResultBytes: this.maxResultBytes, logger, secrets };
  }

  /** Ends every connection (a stdio upstream's child process exits). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
    this.connections.clear();
  }
}

/** The arguments given a value (an optional one left out is not sent). */
function given(args: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
