import type { ClientCapabilities, CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsResult, LoggingLevel } from '@modelcontextprotocol/server';
import { ToolError } from '../results/tool-error';
import { clip } from '../helpers/client-text';
import type { ClassType } from '../types/class-type';
import type { ElicitationForm } from '../compiled/elicitation-form';
import type { AskOptions, ClientInput, Elicitation, SampleRequest } from './client-requests';
import { MissingCredentialError } from '../errors/missing-credential.error';
import { UndeclaredCredentialError } from '../errors/undeclared-credential.error';
import { UndeclaredElicitationFormError } from '../errors/undeclared-elicitation-form.error';
import { credentialEnvironmentVariable } from './credential-env';
import { AuthContext } from './auth-context';
import { answerAction, answerProblem, ElicitationAnswerMismatch } from './elicitation-answer';
import { TaskContext, type TaskChannel } from './task-context';
import { exchangeTokenFor, type TokenExchangeRequest } from './token-exchange';

export type TransportKind = 'http' | 'stdio' | 'memory';
export type ProtocolEra = 'modern' | 'legacy';

export interface ClientInfo {
  name: string;
  version: string;
}

/** Reads one header (lower-case name) and lists them all; backed by a fetch `Headers` or a record. */
export interface HeaderSource {
  get(name: string): string | undefined;
  entries(): Record<string, string>;
}

export interface RequestContextInit {
  transport: TransportKind;
  era: ProtocolEra;
  toolset: string;
  tool: string;
  credentialHeaders: readonly string[];
  headers: HeaderSource;
  /** Where credentials come from when there are no headers (stdio): the process environment. */
  environment?: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  client: () => ClientInfo | undefined;
  /** What the client declared it supports (elicitation, sampling, roots, extensions), when it said. */
  clientCapabilities?: () => ClientCapabilities | undefined;
  sendProgress?: (progress: number, total?: number, message?: string) => Promise<void>;
  sendLog?: (level: LoggingLevel, data: unknown) => Promise<void>;
  /** Elicitation and sampling, as this request's era and transport allow. */
  clientInput?: () => ClientInput;
  /** The forms the tool declares in `elicits`, compiled by the gate. */
  elicitationForms?: ReadonlyMap<ClassType, ElicitationForm>;
  /** Who calls, as token verification established it (anonymous where none is done). */
  auth?: AuthContext;
  /** The task this call runs as (`@Tool({ task })` and a client that supports tasks). */
  task?: TaskChannel;
  /** Makes this call a task (`task.start()` of an `askFirst` tool whose client wants one). */
  startTask?: () => never;
  /** Token exchange for this call's verified caller. */
  exchangeToken?: (request: TokenExchangeRequest) => Promise<string>;
}

/**
 * What one `tools/call` knows about its caller, injected into toolset constructors. A new one is
 * made for every call, in that call's own child container, so no state crosses requests.
 */
export class RequestContext {
  readonly transport: TransportKind;
  /** `modern` for 2026-07-28 clients, `legacy` for 2025-era ones. */
  readonly era: ProtocolEra;
  readonly toolset: string;
  readonly tool: string;
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  // ES-private so logging the context (util.inspect, JSON) never shows headers or credentials.
  readonly #init: RequestContextInit;
  #task: TaskContext | undefined;

  constructor(init: RequestContextInit) {
    this.#init = init;
    this.transport = init.transport;
    this.era = init.era;
    this.toolset = init.toolset;
    this.tool = init.tool;
    this.signal = init.signal;
  }

  /** The request's HTTP headers, names lower-cased (empty over stdio). */
  get headers(): Record<string, string> {
    return this.#init.headers.entries();
  }

  /**
   * Who calls, as the mount's token verification established it (also injectable as
   * `AuthContext`); `authenticated` is false over stdio and on mounts that check no token.
   */
  get auth(): AuthContext {
    return this.#init.auth ?? AuthContext.anonymous;
  }

  /**
   * A token for an API this tool calls on its caller's behalf: the caller's verified access token,
   * which is meant for this server alone and is never passed on, exchanged at the issuer for one
   * meant for that API (OAuth 2.0 Token Exchange, RFC 8693; `resource` its URL, or `audience` its
   * name at the issuer), kept per caller until shortly before it expires. Needs a mount that checks
   * tokens and the server's own client at the issuer (`AUTH_CLIENT_ID`, `AUTH_CLIENT_SECRET`);
   * otherwise, or when the issuer refuses, throws a `TokenExchangeError` that says what to set,
   * which the call answers as an error result.
   */
  exchangeToken(request: TokenExchangeRequest): Promise<string> {
    return this.#init.exchangeToken ? this.#init.exchangeToken(request) : exchangeTokenFor(undefined, request);
  }

  /**
   * The call's task: its status, progress, `requireInput` and cancellation (also injectable as
   * `TaskContext`). For a call that does not run as a task, the same methods send progress
   * notifications and ask through `elicit`.
   */
  get task(): TaskContext {
    return (this.#task ??= new TaskContext({
      channel: this.#init.task,
      signal: this.signal,
      progress: (progress, total, message) => this.progress(progress, total, message),
      elicit: (message, form, options) => this.elicit(message, form, options),
      start: this.#init.startTask,
    }));
  }

  /** The client's declared name and version, when it sent them. */
  get client(): ClientInfo | undefined {
    return this.#init.client();
  }

  /**
   * What the client declared it supports (`elicitation`, `sampling`, `roots`, `extensions`), in
   * either era; undefined when it declared nothing. A tool that can do without a question checks
   * here first: asking a 2026-07-28 client for what it did not declare refuses the whole call (-32021).
   */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.#init.clientCapabilities?.();
  }

  /** One header by name, any case. */
  header(name: string): string | undefined {
    return this.#init.headers.get(name.toLowerCase());
  }

  /**
   * The value of a credential header the toolset declared. Throws `MissingCredentialError` (sent to
   * the client as an `isError` result that says how to configure it) when the caller did not send it.
   */
  credential(name: string): string {
    const value = this.findCredential(name);
    if (value === undefined) throw new MissingCredentialError(name.toLowerCase(), credentialEnvironmentVariable(name));
    return value;
  }

  /** Whether the caller sent a declared credential, without throwing. */
  hasCredential(name: string): boolean {
    return this.findCredential(name) !== undefined;
  }

  /** Whether the client asked for progress on this call (sent a progress token): a tool relaying progress from elsewhere asks for it only then. */
  get wantsProgress(): boolean {
    return this.#init.sendProgress !== undefined;
  }

  /** Reports progress to the client, if it asked for progress on this call; otherwise does nothing. */
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    await this.#init.sendProgress?.(progress, total, message);
  }

  /**
   * Logs to the client (`notifications/message`, at or above the level it asked for) and to the
   * server log, with this request's credential values redacted from both. `data` is any JSON value.
   * 2026-07-28 clients choose the level per request; 2025-era clients with `logging/setLevel`,
   * which over stateless HTTP lasts only for the request that sets it (see docs/authoring-toolsets.md).
   */
  async log(level: LoggingLevel, data: unknown): Promise<void> {
    await this.#init.sendLog?.(level, data);
  }

  /**
   * Asks the user for input described by a DTO class (flat: string, number, integer, boolean and
   * enum fields, multi-selects; titled choices with `@Field({ enumTitles })`) that the tool lists in `@Tool({ elicits: [...] })`, where the startup gate checked
   * it; asking for one it does not list throws `UndeclaredElicitationFormError`. Returns it filled in and checked like tool arguments, or the user's decline or
   * cancel. 2026-07-28 clients answer through an `input_required` round trip, which runs the tool
   * again from the start with the answer (keep what comes before `elicit` free of side effects);
   * 2025-era clients over stdio answer a server-to-client request. A client that cannot answer (no
   * elicitation capability; a 2025-era client over stateless HTTP) gets an isError result saying why;
   * a 2026-07-28 client that declared no elicitation capability is refused (-32021). Questions asked
   * together (`Promise.all`) reach a 2026-07-28 client in one round; `options.key` names a question
   * on the wire (default: its order in the call).
   */
  async elicit<T extends object>(message: string, form: ClassType<T>, options?: AskOptions): Promise<Elicitation<T>> {
    const compiled = this.#init.elicitationForms?.get(form);
    if (!compiled) throw new UndeclaredElicitationFormError(this.toolset, this.tool, form.name);
    const doesNotFit = (problems: readonly string[]) => new ToolError('invalid_elicitation_answer', `The answer to "${message}" does not fit ${form.name}: ${problems.join('; ')}.`);
    let answer;
    try {
      answer = await this.requireInput().elicit({ message, requestedSchema: compiled.requestedSchema }, options);
    } catch (error) {
      throw error instanceof ElicitationAnswerMismatch ? doesNotFit(error.problems) : error;
    }
    const action = answerAction(answer);
    if (action === undefined) throw doesNotFit([`its action is ${clip(JSON.stringify((answer as { action?: unknown } | undefined)?.action) ?? 'missing')}; an answer's action is "accept", "decline" or "cancel"`]);
    if (action !== 'accept') return { action };
    // Keys the form does not ask for are dropped, as undeclared keys of a result are: a client that adds one still answered the form.
    const content = declaredOnly(answer.content ?? {}, compiled.requestedSchema);
    const problems = compiled.validator.Check(content)
      ? (compiled.checkRules?.(compiled.materialize(content as Record<string, unknown>)) ?? []).map((p) => `'${p.path.join('.')}': ${p.message}`)
      : [...compiled.validator.Errors(content)].map((error) => answerProblem(error.instancePath, error.message));
    if (problems.length > 0) throw doesNotFit(problems);
    return { action: 'accept', content: compiled.materialize(content as Record<string, unknown>) as T };
  }

  /**
   * Asks the client's model (`sampling/createMessage`), through the same paths as `elicit`:
   * `sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100 })`.
   */
  async sample(request: SampleRequest, options?: AskOptions): Promise<CreateMessageResult> {
    return this.requireInput().sample(request, options);
  }

  /**
   * Sends the user to `url` (URL-mode elicitation) to do there what must not pass through the
   * client or the model: sign in to a third party, pay, enter a secret. Resolves with the user's
   * `accept` (they went and are done), `decline` or `cancel`; what they entered reaches your server
   * at that URL, never this call. **Credentials a tool needs from the user go this way, never
   * through a form** (the startup log warns about a form field that asks for one). 2026-07-28
   * clients answer through an `input_required` round (declaring `elicitation.url`; one that did not
   * is refused, -32021); 2025-11-25 clients get the request on their connection; inside a task it is
   * one of the task's input requests.
   */
  async elicitUrl(url: string, message: string, options?: AskOptions): Promise<{ action: 'accept' | 'decline' | 'cancel' }> {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed?.protocol !== 'https:' && parsed?.protocol !== 'http:') {
      throw new ToolError('invalid_elicitation_url', `The tool '${this.tool}' asked the user to open ${clip(JSON.stringify(url))}, which is not an http(s) URL.`);
    }
    const answer = await this.requireInput().elicitUrl({ message, url: parsed.href }, options);
    const action = answerAction(answer);
    if (action === undefined) throw new ToolError('invalid_elicitation_answer', `The answer to "${message}" has action ${clip(JSON.stringify((answer as { action?: unknown } | undefined)?.action) ?? 'missing')}; an answer's action is "accept", "decline" or "cancel".`);
    return { action };
  }

  /**
   * Passes on a question another MCP server asked during this call (its `elicitation/create`
   * parameters, a form or a URL), for a toolset that relays one: a library generated from an
   * upstream MCP server. It reaches the client through the same paths as `elicit`, and the answer
   * comes back as the client gave it, unchecked: the server that asked checks it against its own
   * form. A toolset's own questions go through `elicit`, whose forms the startup gate checks.
   */
  async relayElicitation(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult> {
    if (params.mode === 'url') return this.elicitUrl(params.url, params.message, options);
    try {
      return await this.requireInput().elicit({ message: params.message, requestedSchema: params.requestedSchema as Record<string, unknown> }, options);
    } catch (error) {
      if (error instanceof ElicitationAnswerMismatch) throw new ToolError('invalid_elicitation_answer', `The answer to "${params.message}" does not fit the form asked: ${error.problems.join('; ')}.`);
      throw error;
    }
  }

  /**
   * The client's roots (`roots/list`: the directories or files it lets the server see), through
   * the same paths as `elicit`.
   */
  async roots(options?: AskOptions): Promise<ListRootsResult['roots']> {
    return (await this.requireInput().listRoots(options)).roots;
  }

  private requireInput(): ClientInput {
    const input = this.#init.clientInput?.();
    if (!input) throw new ToolError('client_input_unavailable', 'This connection cannot reach the client for elicitation or sampling.');
    return input;
  }

  private findCredential(name: string): string | undefined {
    const header = name.toLowerCase();
    if (!this.#init.credentialHeaders.includes(header)) {
      throw new UndeclaredCredentialError(this.toolset, header, this.#init.credentialHeaders);
    }
    const value = this.transport === 'stdio' ? this.#init.environment?.[credentialEnvironmentVariable(header)] : this.#init.headers.get(header);
    return value === undefined || value === '' ? undefined : value;
  }
}

/** The keys of `content` the form's schema declares. */
function declaredOnly(content: object, schema: { properties?: object }): object {
  const declared = schema.properties ?? {};
  return Object.fromEntries(Object.entries(content).filter(([key]) => Object.hasOwn(declared, key)));
}
