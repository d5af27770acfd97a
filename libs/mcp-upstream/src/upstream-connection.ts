import { Client, ClientCredentialsProvider, ProtocolError, ProtocolErrorCode, RELATED_TASK_META_KEY, StreamableHTTPClientTransport, type PriorDiscovery, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { stderrLogger, type Logger } from '@toolsets/core';
import { answerEndedStreams } from './ended-streams';
import { withRawRequests, type RawRequests } from './raw-channel';
import { redact } from './secret-redaction';
import { askingCall, type QuestionAnswerer, type QuestionMethod } from './upstream-questions';
import { nodeHttpFetch, type NodeHttpFetch } from './node-http-fetch';
import { requestSignalFetch } from './request-signal-fetch';
import { DriftReports, type DriftKind } from './upstream-drift';
import { DEFAULT_TIMEOUT_MS, redactionsOf, variablePrefix, type ResolvedUpstreamSettings } from './upstream-settings';
import { hookExit, live } from './live-connections';

/** The first wait before connecting again after a failure; it doubles per failure in a row, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;
/** How much of a stdio child's last stderr output the log keeps when it dies (never sent to a caller). */
const STDERR_TAIL = 2_000;
/**
 * The soonest an upstream's `ttlMs` on its tool list has the list read again, and the latest (the
 * SDK's own bound on a server's ttl): `ttlMs: 0` means "stale at once", which must not become a loop.
 */
const MIN_RELIST_MS = 1_000;
const MAX_RELIST_MS = 86_400_000;

/** The connection is closed for good (the app is shutting down). */
export class UpstreamClosed extends Error {}

/**
 * One connection to an upstream MCP server, shared by every call of the process: one SDK `Client`
 * over streamable HTTP (whose requests share keep-alive sockets) or one stdio child process. It
 * connects on first use; when the connection is lost (the child died, the server went away) the
 * next call connects again, waiting longer after each failure in a row (250 ms doubling to 10 s)
 * so a crashing upstream is not restarted in a tight loop. The era the upstream spoke when the
 * library was generated is reused (`prior`), so connecting costs one handshake and no probe.
 */
export class UpstreamConnection {
  private current?: Promise<Client>;
  /** The client once connected, until the connection ends: a call then uses it without waiting on anything. */
  private ready?: Client;
  /** Which connection is the current one: a replaced one's close or failure says nothing about the upstream now. */
  private generation = 0;
  private failures = 0;
  private retryAt = 0;
  private closed = false;
  private stderrTail = '';
  /** The stdio child's process id, while one runs. */
  private childPid: number | null = null;
  /** Served tools the live upstream removed or changed since generation, as last seen. */
  private drifted = new Map<string, DriftKind>();
  private readonly driftReports: DriftReports;
  /** The drift check's poll (`pollMs`) or its next listing when the upstream's list expires (`ttlMs`), while a connection stands. */
  private poll?: NodeJS.Timeout;
  /** Resources subscribed to on this connection (`resources/subscribe`), subscribed to again after a reconnect. */
  private readonly watched = new Set<string>();
  /** Who is told when the upstream says a watched resource changed. */
  private onUpdated?: (uri: string) => void;
  /** Who answers the questions of each upstream task relayed on this connection, by the upstream's task id. */
  private readonly askers = new Map<string, QuestionAnswerer>();
  /** Each client's raw requests (what the SDK will not send: a 2026-07-28 upstream's task methods). */
  private readonly raws = new WeakMap<Client, RawRequests>();
  /** The bound on connecting and on each request the connection makes itself (listing, subscribing). */
  private readonly timeoutMs: number;
  /** An HTTP upstream's requests, over kept-alive sockets of this connection's own. */
  private http?: NodeHttpFetch;
  /** With `oneCallAtATime`: settles once every call that took its turn before the next one is done. */
  private turn: Promise<void> = Promise.resolve();
  /** With `oneCallAtATime`: who answers what the upstream asks, the caller of the one call running. */
  private soleAsker?: QuestionAnswerer;

  constructor(
    private readonly settings: ResolvedUpstreamSettings,
    private readonly prior: PriorDiscovery | undefined,
    private readonly logger: Logger = stderrLogger,
  ) {
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.driftReports = new DriftReports(settings.name, logger);
  }

  /** The connected client, connecting (again) when there is none; rejects when `signal` ends first. */
  client(signal: AbortSignal): Promise<Client> {
    if (this.closed) return Promise.reject(new UpstreamClosed('the app is shutting down'));
    if (this.ready) return Promise.resolve(this.ready);
    live.add(this);
    hookExit();
    // Outside the caller's request: what the connection reads later (a stdio child's output, a standing stream) belongs to no call.
    this.current ??= askingCall.exit(() => this.connect(++this.generation));
    return untilAborted(this.current, signal);
  }

  /** How the tool drifted from the pinned contract, if it did (as of the last connect or list-changed notice). */
  drift(tool: string): DriftKind | undefined {
    return this.drifted.get(tool);
  }

  /**
   * Subscribes to `uri` upstream (connecting if need be), where the upstream offers subscriptions;
   * `onUpdated` hears of each `notifications/resources/updated` for a watched URI.
   */
  async watch(uri: string, onUpdated: (uri: string) => void): Promise<void> {
    this.onUpdated = onUpdated;
    const connected = this.current !== undefined;
    this.watched.add(uri);
    // A new connection subscribes to every watched URI as it connects.
    const client = await this.client(AbortSignal.timeout(this.timeoutMs));
    if (connected && subscribes(client)) await client.subscribeResource({ uri }, { timeout: this.timeoutMs });
  }

  /** Unsubscribes from `uri` upstream, if this connection watched it (and still stands). */
  async unwatch(uri: string): Promise<void> {
    if (!this.watched.delete(uri)) return;
    const client = await this.current?.catch(() => undefined);
    if (client && subscribes(client)) await client.unsubscribeResource({ uri }, { timeout: this.timeoutMs });
  }

  /**
   * Has what the upstream asks about its task `taskId` (a request whose `related-task` names it)
   * answered by `answer`, until the returned function is called. A question that names no task
   * relayed here is refused: on a connection shared by every caller, nothing else says whose it is.
   */
  answerQuestionsOf(taskId: string, answer: QuestionAnswerer): () => void {
    this.askers.set(taskId, answer);
    return () => void this.askers.delete(taskId);
  }

  /** The raw requests of `client` (one this connection made): sent on its connection, answered past the SDK. */
  rawRequests(client: Client): RawRequests {
    const raw = this.raws.get(client);
    if (!raw) throw new Error('not a client of this connection');
    return raw;
  }

  /** Whether this connection's calls are made one at a time (`oneCallAtATime`): see `alone`. */
  get oneCallAtATime(): boolean {
    return this.settings.oneCallAtATime === true;
  }

  /**
   * Makes `request` the only call running on this connection, once the calls before it are done
   * (waiting no longer than `signal` allows), with what the upstream asks meanwhile answered by
   * `answer`: the one call running is the only one a question can belong to.
   */
  async alone<T>(answer: QuestionAnswerer, signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    const before = this.turn;
    let done!: () => void;
    const ours = new Promise<void>((resolve) => (done = resolve));
    // The next call waits for every call before it, whether this one runs or gives up waiting.
    this.turn = before.then(() => ours);
    try {
      await untilAborted(before, signal);
    } catch (error) {
      done();
      throw error;
    }
    this.soleAsker = answer;
    try {
      return await request();
    } finally {
      this.soleAsker = undefined;
      done();
    }
  }

  /** A call succeeded: the next loss reconnects after the shortest wait again. */
  healthy(): void {
    this.failures = 0;
  }

  /** Closes the connection (a stdio child is ended); calls after this fail with `UpstreamClosed`. */
  async close(): Promise<void> {
    this.closed = true;
    live.delete(this);
    clearInterval(this.poll);
    const current = this.current;
    this.current = undefined;
    this.ready = undefined;
    const client = await current?.catch(() => undefined);
    await client?.close().catch(() => undefined);
    this.http?.close();
  }

  /** Ends a stdio child at once, from the process's exit hook, where nothing asynchronous runs. */
  killChild(): void {
    if (this.childPid === null) return;
    try {
      process.kill(this.childPid);
    } catch {
      // Already gone.
    }
  }

  private async connect(generation: number): Promise<Client> {
    const wait = this.retryAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
    const client = new Client({ name: 'toolsets-upstream', version: '0.1.0' }, this.relaysQuestions() ? { capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } } : undefined);
    const ended = (why: string) => {
      if (generation !== this.generation || this.closed) return;
      this.generation += 1;
      this.current = undefined;
      this.ready = undefined;
      this.childPid = null;
      clearInterval(this.poll);
      this.lost(why);
    };
    client.onclose = () => ended('the connection closed');
    try {
      const { transport, raw } = withRawRequests(this.transport());
      this.raws.set(client, raw);
      await client.connect(transport, { timeout: this.timeoutMs, ...(this.prior && { prior: this.prior }) });
      if (transport instanceof StdioClientTransport) this.childPid = transport.pid;
      this.relayLogs(client);
      this.answerQuestions(client);
      await this.watchDrift(client, generation);
      await this.resubscribe(client);
      if (generation === this.generation && !this.closed) this.ready = client;
      return client;
    } catch (error) {
      ended(`connecting failed: ${redact((error as Error).message, redactionsOf(this.settings))}`);
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Compares the live tools with the pinned contract now, and again whenever the upstream says its
   * tools changed (`notifications/tools/list_changed`), every `pollMs` when set, and otherwise when
   * the list the upstream gave expires (its `ttlMs`, 2026-07-28). A failed listing is logged and
   * leaves the last verdict.
   */
  private async watchDrift(client: Client, generation: number): Promise<void> {
    const pins = this.settings.pins;
    if (!pins || Object.keys(pins).length === 0) return;
    const notifies = client.getServerCapabilities()?.tools?.listChanged === true;
    const check = async () => {
      try {
        const listing = await client.listTools(undefined, { timeout: this.timeoutMs, cacheMode: 'bypass' });
        this.drifted = this.driftReports.check(pins, listing.tools);
        // An upstream that neither says when its tools change nor is polled may say how long its list stays fresh.
        const ttlMs = (listing as { ttlMs?: unknown }).ttlMs;
        if (!notifies && !this.settings.pollMs && typeof ttlMs === 'number' && ttlMs >= 0 && generation === this.generation && !this.closed) {
          this.poll = setTimeout(() => void check(), Math.min(MAX_RELIST_MS, Math.max(MIN_RELIST_MS, ttlMs))).unref();
        }
      } catch (error) {
        this.logger.warn('upstream MCP server tools could not be listed to check them against the pinned contract', { upstream: this.settings.name, reason: redact((error as Error).message, redactionsOf(this.settings)) });
      }
    };
    if (notifies) client.setNotificationHandler('notifications/tools/list_changed', () => check());
    // An upstream that sends no notice is listed again every pollMs, when the operator asks for it.
    if (this.settings.pollMs) this.poll = setInterval(() => void check(), this.settings.pollMs).unref();
    await check();
  }

  /**
   * The upstream's log messages (`notifications/message`) go to the app's log, tagged with the
   * upstream and redacted of every credential the connection sends. They are not passed to callers:
   * the connection is shared, and a message carries no sign of the call it belongs to, so passing it
   * on could hand one caller another's details.
   */
  private relayLogs(client: Client): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      // As text: the app's logger bounds a long field (stderrLogger cuts it at 2,000 characters).
      const text = redact(typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data)), redactionsOf(this.settings));
      const fields = { upstream: this.settings.name, level, ...(logger && { logger }), data: text };
      const write = level === 'debug' || level === 'info' || level === 'notice' ? this.logger.info : level === 'warning' ? this.logger.warn : this.logger.error;
      write.call(this.logger, 'upstream MCP server logged', fields);
    });
  }

  /**
   * Whether the connection tells a 2025-era upstream it can answer elicitation and sampling (those
   * are the connection's capabilities in that era): over HTTP, where a question comes on the
   * stream of the request it belongs to, and wherever the library relays the upstream's tasks,
   * whose questions name their task.
   */
  private relaysQuestions(): boolean {
    return this.settings.transport.kind === 'http' || this.settings.tasks === true || this.oneCallAtATime;
  }

  /**
   * Whether a question `client`'s upstream asks during a request can be told apart by the request
   * it came with: a 2025-era upstream over HTTP asks on the request's own response stream (a
   * 2026-07-28 one asks in its answer; a stdio child's output belongs to no request).
   */
  attributesQuestions(client: Client): boolean {
    return this.settings.transport.kind === 'http' && (client.getNegotiatedProtocolVersion() ?? '') < '2026-07-28';
  }

  /** Routes each question the upstream asks to the caller it belongs to: the task it names, else the request it came with. */
  private answerQuestions(client: Client): void {
    if (!this.relaysQuestions()) {
      // Not declared, so a well-behaved upstream does not ask; one that asks all the same (the Python
      // SDK's `ctx.elicit` does not look) is told why, where the SDK would answer "Method not found".
      client.fallbackRequestHandler = async (request) => {
        if (request.method !== 'elicitation/create' && request.method !== 'sampling/createMessage') throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
        this.logger.warn('upstream MCP server asked a question over stdio, where its calls are shared; refused', { upstream: this.settings.name, method: request.method });
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `toolsets did not offer ${request.method} to this upstream: over stdio, what it asks belongs to no call of the callers it serves side by side. Its operator can make its calls one at a time ("oneCallAtATime": true in mcp.config.json, or ${variablePrefix(this.settings.name)}_MCP_ONE_CALL_AT_A_TIME=true) for its questions to reach the caller.`,
        );
      };
      return;
    }
    for (const method of ['elicitation/create', 'sampling/createMessage'] as const) {
      client.setRequestHandler(method, ((request: { params: Record<string, unknown> }) => this.asked(method, request.params)) as never);
    }
  }

  private asked(method: QuestionMethod, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const related = (params['_meta'] as Record<string, { taskId?: unknown } | undefined> | undefined)?.[RELATED_TASK_META_KEY];
    const answer = related ? (typeof related.taskId === 'string' ? this.askers.get(related.taskId) : undefined) : (askingCall.getStore() ?? this.soleAsker);
    if (answer) return answer(method, params);
    this.logger.warn('upstream MCP server asked a question that belongs to no call relayed to it; refused', { upstream: this.settings.name, method });
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `toolsets passes ${method} on to a caller only for a request of that caller's (asked on its HTTP response stream, or while the only call of an upstream whose calls are made one at a time) or a task it relays (named by the request's _meta "${RELATED_TASK_META_KEY}"); this one is neither, and the connection is shared by every caller.`,
    );
  }

  /**
   * Passes the upstream's resource updates on for the URIs watched here, and subscribes to each of
   * them on this (new) connection. A subscription the upstream refuses is logged; the rest stand.
   */
  private async resubscribe(client: Client): Promise<void> {
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      const uri = notification.params.uri;
      if (this.watched.has(uri)) this.onUpdated?.(uri);
    });
    if (!subscribes(client)) return;
    for (const uri of this.watched) {
      await client.subscribeResource({ uri }, { timeout: this.timeoutMs }).catch((error: Error) => {
        this.logger.warn('upstream MCP server refused a resource subscription', { upstream: this.settings.name, uri: uri.slice(0, 200), reason: redact(error.message, redactionsOf(this.settings)) });
      });
    }
  }

  private lost(why: string): void {
    this.failures += 1;
    const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failures - 1));
    this.retryAt = Date.now() + backoff;
    const stderr = this.stderrTail.trim();
    this.stderrTail = '';
    this.logger.warn('upstream MCP server connection lost', {
      upstream: this.settings.name,
      why,
      reconnectInMs: backoff,
      ...(stderr && { stderr: redact(stderr, redactionsOf(this.settings)) }),
    });
  }

  private transport(): Transport {
    const { transport, secrets } = this.settings;
    if (transport.kind === 'http') {
      const identity = this.settings.identity;
      // The app as a service account: the SDK's provider finds the authorization server from the upstream's 401, gets a token, keeps and renews it.
      const authProvider =
        identity?.kind === 'client-credentials' ? new ClientCredentialsProvider({ clientId: identity.clientId, clientSecret: identity.clientSecret, expectedIssuer: identity.issuer, ...(identity.scope && { scope: identity.scope }) }) : undefined;
      this.http ??= nodeHttpFetch(requestSignalFetch());
      return answerEndedStreams(new StreamableHTTPClientTransport(new URL(transport.url), { requestInit: { headers: secrets }, fetch: this.http.fetch, ...(authProvider && { authProvider }) }));
    }
    const child = new StdioClientTransport({
      command: transport.command,
      args: transport.args ?? [],
      ...(transport.cwd && { cwd: transport.cwd }),
      // The child's own variables (secrets) beside the SDK's safe defaults: never the app's whole environment.
      env: { ...getDefaultEnvironment(), ...secrets },
      stderr: 'pipe',
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return child;
  }
}

/** Whether the upstream takes `resources/subscribe`. */
function subscribes(client: Client): boolean {
  return client.getServerCapabilities()?.resources?.subscribe === true;
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise itself goes on for the next call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
