import {
  PerRequestHTTPServerTransport,
  SdkError,
  SdkErrorCode,
  type AuthInfo,
  type JSONRPCRequest,
  type MessageClassification,
  type RequestMetaEnvelope,
  type Result,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { isStandardSchema } from '../../wire/sdk-mirror';
import type { CatalogSlices } from '../../selection/catalog-slices';
import type { TaskAnsweringServer } from '../../wire/task-answer';
import type { ServingSite } from '../request/member-scope';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
/** A `tools/call` handler as this server writes them (its request typed as `tools/call`'s). */
type CallHandler = (request: never, ctx: ServerContext) => Promise<object>;

/**
 * The era a call is served in: a 2026-07-28 request as the SDK's classifier classified it, or a
 * 2025-era request without a session (each answered by a server no client initialized).
 */
export type DirectEra = { era: 'modern'; classification: MessageClassification } | { era: 'legacy' };

/** What the HTTP transport knows of one `tools/call` it hands over. */
export interface DirectRequest {
  /** The request as the SDK's handlers see it: a 2026-07-28 request's `_meta` envelope lifted out of its params. */
  request: JSONRPCRequest;
  /** A 2026-07-28 request's envelope (protocol version, client, its capabilities). */
  envelope?: RequestMetaEnvelope;
  /** Sends a notification the call makes (a 2025-era call's log lines) on its response stream. */
  notify(notification: object): void;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The request's line and headers, as the SDK's handlers read them (`ctx.http.req`). */
  httpRequest: Request;
  /** The verified caller, on a mount that checks tokens. */
  authInfo?: AuthInfo;
  /** The view the request's query and headers select (its token's scopes are applied per call). */
  selected: CatalogSlice;
}

/** What the stdio transport knows of one `tools/call` it hands to a pinned instance. */
export interface PinnedRequest {
  /** The request as the SDK's handlers see it: a 2026-07-28 request's `_meta` envelope lifted out of its params. */
  request: JSONRPCRequest;
  /** A 2026-07-28 request's envelope (protocol version, client, its capabilities). */
  envelope?: RequestMetaEnvelope;
  /** Aborted when the client cancels the request or the connection closes. */
  signal: AbortSignal;
  /** The view the connection serves. */
  selected: CatalogSlice;
}

/**
 * `tools/call` of one HTTP mount without an SDK server, transport and fetch `Request` per request
 * (the fast path): one server per protocol revision, bound to it once, runs every call through
 * `tools/call`'s handler wrapped exactly as the SDK wraps it when it is registered (the request
 * and result checks, task answers, spans), with a context holding what the SDK's would. Each call
 * runs the handler a server made for its view would register (made once per view).
 */
export class DirectCalls {
  readonly #bound = new Map<string, Promise<TaskAnsweringServer>>();
  readonly #handlers = new Map<TaskAnsweringServer, WeakMap<CatalogSlice, Handler>>();

  constructor(
    /** A server as the factory makes one for a request of `era`. */
    private readonly makeServer: (era: 'modern' | 'legacy') => TaskAnsweringServer,
    /** The `tools/call` handler a server made for `site` registers. */
    private readonly handlerOf: (site: ServingSite, server: Server) => CallHandler,
    /** The site of a server made for an HTTP request of this mount, but for its era and view. */
    private readonly site: Omit<ServingSite, 'served' | 'era'>,
    private readonly views: CatalogSlices,
    /** The server's name and version, as its results carry them in `_meta`. */
    readonly serverInfo: { readonly name: string; readonly version: string },
  ) {}

  /**
   * Answers a `tools/call` on `server`, an instance the SDK's stdio entry pinned to `era` for a
   * connection (made by `serverFactory` with this `DirectCalls`' connection), as that instance's
   * own dispatch would: the handler it registers for `call.selected`, wrapped as it wraps it, in the
   * context its protocol layer would give the request (`pinnedContext`).
   */
  callOn(server: TaskAnsweringServer, era: 'modern' | 'legacy', call: PinnedRequest): Promise<Result> {
    return this.#handlerFor(server, era, call.selected)(call.request, pinnedContext(server, era, call));
  }

  /** Answers `call` as the handler of a server made for its request would: its result, or the error it throws. */
  async call(era: DirectEra, call: DirectRequest): Promise<Result> {
    const server = await this.#serverFor(era);
    return this.#handlerFor(server, era.era, call.selected)(call.request, era.era === 'modern' ? modernContext(server, call) : legacyContext(server, call));
  }

  /**
   * The wrapped handler a server made for a request selecting `view` would run, made once per view
   * (a server's views are few, and kept by its `CatalogSlices`): nothing of a request is in it.
   */
  #handlerFor(server: TaskAnsweringServer, era: 'modern' | 'legacy', view: CatalogSlice): Handler {
    let byView = this.#handlers.get(server);
    if (!byView) this.#handlers.set(server, (byView = new WeakMap()));
    let handler = byView.get(view);
    if (!handler) {
      const site: ServingSite = { ...this.site, era, served: { views: this.views, view } };
      byView.set(view, (handler = server.wrappedHandler('tools/call', this.handlerOf(site, server) as unknown as Handler)));
    }
    return handler;
  }

  /**
   * The server of the request's era: for a 2026-07-28 revision, connected once to a per-request
   * transport of its classification, which binds it to that revision; for the 2025 era, one that
   * never negotiated a version, as a server made for a request without a session is.
   */
  #serverFor(era: DirectEra): Promise<TaskAnsweringServer> {
    const key = era.era === 'modern' ? (era.classification.revision ?? era.era) : era.era;
    let bound = this.#bound.get(key);
    if (!bound) {
      const server = this.makeServer(era.era);
      bound = era.era === 'modern' ? server.connect(new PerRequestHTTPServerTransport({ classification: era.classification })).then(() => server) : Promise.resolve(server);
      this.#bound.set(key, bound);
    }
    return bound;
  }
}

/**
 * The context the SDK's protocol layer gives a 2026-07-28 request's handler, for a request with
 * no retry material (`requestState`, `inputResponses`) and nothing in `_meta` beyond the envelope
 * (the fast path takes no other): no progress token and no log level, so progress and log lines
 * are not sent, as there. Questions to the client travel in `input_required` results in this
 * revision; a server-to-client request is refused as the SDK refuses it.
 */
function modernContext(server: TaskAnsweringServer, call: DirectRequest): ServerContext {
  return contextOf(server, call, { send: refuseClientRequest, notify: sent, log: sent, http: httpOf(call) });
}

/**
 * The context the SDK's protocol layer gives a 2025-era request's handler on a server no client
 * initialized, for a request with no `_meta` (no progress token): with no log level ever set on
 * it, every log line is sent, on the request's response stream, as `notifications/message`.
 */
function legacyContext(server: TaskAnsweringServer, call: DirectRequest): ServerContext {
  const notify = (notification: object) => {
    call.notify({ jsonrpc: '2.0', ...notification });
    return Promise.resolve();
  };
  const log = (level: string, data: unknown, logger?: string) => notify({ method: 'notifications/message', params: { level, data, logger } });
  return contextOf(server, call, { send: refuseClientRequest, notify, log, http: httpOf(call) });
}

/**
 * The context the SDK's protocol layer (`Protocol._onrequest`, then `Server.buildContext`) gives a
 * request delivered over a stdio connection, with nothing in `_meta` but a progress token and a
 * 2026-07-28 envelope (the fast path takes no other): no session, no HTTP request; notifications
 * (progress among them) and requests to the client related to the request and sent through
 * `server` (its connection's channel); log lines by the era's rule: in 2026-07-28 only at a level
 * the envelope names (never, here), in the 2025 era at or above the level `logging/setLevel` set
 * on the connection (every line until it is set).
 */
function pinnedContext(server: TaskAnsweringServer, era: 'modern' | 'legacy', call: PinnedRequest): ServerContext {
  const relatedRequestId = call.request.id;
  const notify = (notification: object, options?: object) => server.notification(notification as never, { ...options, relatedRequestId });
  // The 2025-era rule through the server's own: its logging capability, then the level set on the connection (`isMessageIgnored`).
  const log = (level: string, data: unknown, logger?: string): Promise<void> => (era === 'modern' ? Promise.resolve() : server.sendLoggingMessage({ level, data, logger } as never));
  const send = (message: object, schemaOrOptions?: object, maybeOptions?: object) =>
    isStandardSchema(schemaOrOptions)
      ? server.request(message as never, schemaOrOptions as never, { ...maybeOptions, relatedRequestId })
      : server.request(message as never, { ...schemaOrOptions, relatedRequestId });
  return contextOf(server, call, { send, notify, log, http: undefined });
}

/** How a context reaches the client, by transport and era: requests, notifications and log lines, and what `ctx.http` holds. */
interface ContextChannel {
  send: (...args: never[]) => unknown;
  notify: (notification: object) => Promise<void>;
  log: (level: string, data: unknown, logger?: string) => Promise<void>;
  http: object | undefined;
}

function contextOf(server: TaskAnsweringServer, call: Pick<DirectRequest, 'request' | 'envelope' | 'signal'>, channel: ContextChannel): ServerContext {
  const { request, envelope, signal } = call;
  return {
    sessionId: undefined,
    mcpReq: {
      id: request.id,
      method: request.method,
      _meta: (request.params as { _meta?: unknown } | undefined)?._meta,
      ...(envelope && { envelope }),
      requestState: noRequestState,
      signal,
      send: channel.send,
      notify: channel.notify,
      log: channel.log,
      elicitInput: (...args: Parameters<Server['elicitInput']>) => server.elicitInput(...args),
      requestSampling: (...args: Parameters<Server['createMessage']>) => server.createMessage(...args),
    },
    http: channel.http,
  } as unknown as ServerContext;
}

/** `ctx.http` of an HTTP request: its line and headers, and the verified caller on a mount that checks tokens. */
function httpOf({ httpRequest, authInfo }: DirectRequest): object {
  return { ...(authInfo && { authInfo }), req: httpRequest, closeSSE: undefined, closeStandaloneSSE: undefined };
}

const noRequestState = () => undefined;
const sent = () => Promise.resolve();

/** The fast path's requests carry nothing back from the client: a request to it is refused (its questions go as `input_required`, or fail before they are asked over stateless 2025-era HTTP). */
function refuseClientRequest(): never {
  throw new SdkError(SdkErrorCode.MethodNotSupportedByProtocolVersion, 'This request cannot carry a request to the client: over stateless HTTP a 2026-07-28 call returns input_required instead.');
}
