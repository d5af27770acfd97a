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
import type { CatalogView } from '../../selection/catalog-view';
import type { CatalogViews } from '../../selection/catalog-views';
import type { TaskAnsweringServer } from '../../wire/task-answer';
import type { ServingSite } from '../request/member-scope';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
/** A `tools/call` handler as this server writes them (its request typed as `tools/call`'s). */
type CallHandler = (request: never, ctx: ServerContext) => Promise<object>;

/** What the HTTP transport knows of one 2026-07-28 `tools/call` it hands over. */
export interface DirectRequest {
  /** The request as the SDK's handlers see it: its `_meta` envelope lifted out of its params. */
  request: JSONRPCRequest;
  /** The envelope (protocol version, client, its capabilities). */
  envelope: RequestMetaEnvelope;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The request's line and headers, as the SDK's handlers read them (`ctx.http.req`). */
  httpRequest: Request;
  /** The verified caller, on a mount that checks tokens. */
  authInfo?: AuthInfo;
  /** The view the request's query and headers select (its token's scopes are applied per call). */
  selected: CatalogView;
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
  readonly #handlers = new Map<TaskAnsweringServer, WeakMap<CatalogView, Handler>>();

  constructor(
    private readonly makeServer: () => TaskAnsweringServer,
    /** The `tools/call` handler a server made for `site` registers. */
    private readonly handlerOf: (site: ServingSite, server: Server) => CallHandler,
    /** The site of a server made for an HTTP request of this mount, but for its view. */
    private readonly site: Omit<ServingSite, 'served'>,
    private readonly views: CatalogViews,
    /** The server's name and version, as its results carry them in `_meta`. */
    readonly serverInfo: { readonly name: string; readonly version: string },
  ) {}

  /** Answers `call` as the handler of a server made for its request would: its result, or the error it throws. */
  async call(classification: MessageClassification, call: DirectRequest): Promise<Result> {
    const server = await this.#serverFor(classification);
    return this.#handlerFor(server, call.selected)(call.request, contextOf(server, call));
  }

  /**
   * The wrapped handler a server made for a request selecting `view` would run, made once per view
   * (a server's views are few, and kept by its `CatalogViews`): nothing of a request is in it.
   */
  #handlerFor(server: TaskAnsweringServer, view: CatalogView): Handler {
    let byView = this.#handlers.get(server);
    if (!byView) this.#handlers.set(server, (byView = new WeakMap()));
    let handler = byView.get(view);
    if (!handler) {
      const site: ServingSite = { ...this.site, served: { views: this.views, view } };
      byView.set(view, (handler = server.wrappedHandler('tools/call', this.handlerOf(site, server) as unknown as Handler)));
    }
    return handler;
  }

  /** The server bound to the request's revision: connected once to a per-request transport of that classification, which binds its era. */
  #serverFor(classification: MessageClassification): Promise<TaskAnsweringServer> {
    const revision = classification.revision ?? classification.era;
    let bound = this.#bound.get(revision);
    if (!bound) {
      const server = this.makeServer();
      bound = server.connect(new PerRequestHTTPServerTransport({ classification })).then(() => server);
      this.#bound.set(revision, bound);
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
function contextOf(server: TaskAnsweringServer, call: DirectRequest): ServerContext {
  const { request, envelope, signal, httpRequest, authInfo } = call;
  return {
    sessionId: undefined,
    mcpReq: {
      id: request.id,
      method: request.method,
      _meta: undefined,
      envelope,
      requestState: noRequestState,
      signal,
      send: refuseClientRequest,
      notify: sent,
      log: sent,
      elicitInput: (...args: Parameters<Server['elicitInput']>) => server.elicitInput(...args),
      requestSampling: (...args: Parameters<Server['createMessage']>) => server.createMessage(...args),
    },
    http: { ...(authInfo && { authInfo }), req: httpRequest, closeSSE: undefined, closeStandaloneSSE: undefined },
  } as unknown as ServerContext;
}

const noRequestState = () => undefined;
const sent = () => Promise.resolve();

function refuseClientRequest(): never {
  throw new SdkError(SdkErrorCode.MethodNotSupportedByProtocolVersion, 'A 2026-07-28 request cannot carry a request to the client: return input_required instead.');
}
