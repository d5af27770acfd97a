import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { clip } from '../helpers/client-text';
import type { ToolsetServer } from '../server/build-server';
import { stderrLogger, type Logger } from '../server/logger';
import { rateLimitedLogger } from '../server/rate-limited-logger';
import { BodyBudget } from './body-budget';
import { BodyAborted, BodyRefusal, readBody } from './body-reader';
import { bridgeParsedRequest } from './fetch-bridge';
import { CatalogPage, wantsHtml } from './catalog-page/catalog-page';
import { ConnectionTracker } from './connection-tracker';
import { CorsPolicy } from './cors';
import { HostPolicy } from './host-guard';
import { LegacySessions } from './legacy-sessions';
import { idOf, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, SERVER_BUSY, sendJson, sendJsonRpcError } from './http-replies';
import { invalidInitializeParams } from './initialize-check';
import { prescanJson, type PrescanLimits } from './json-prescan';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from './prototype-key';
import { headerCounts, requestTarget } from './request-target';
import { argumentLimitsOf, resolveServingLimits, type ServingLimits } from './serving-limits';

export interface HttpServeOptions extends Partial<ServingLimits> {
  /** Default `127.0.0.1`: loopback, where only loopback Host/Origin names are accepted. */
  host?: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Host names accepted in `Host`/`Origin` besides the loopback names and the bound address. */
  allowedHosts?: readonly string[];
  /** Browser origins allowed by CORS (`*` for any); CORS is off when empty. */
  corsOrigins?: readonly string[];
  /**
   * Keep 2025-era sessions (`MCP_SESSIONS=on`), so those clients can answer elicitation and
   * sampling and receive resource updates over HTTP. Off by default: stateless serving needs no
   * affinity between a client and a replica. 2026-07-28 clients are served statelessly either way.
   */
  sessions?: boolean;
  logger?: Logger;
}

export interface MountInfo {
  name: string;
  url: string;
  tools: string[];
  credentialHeaders: readonly string[];
}

export interface HttpServerHandle {
  /** `http://host:port` */
  readonly origin: string;
  readonly mounts: readonly MountInfo[];
  /** The limits in force, defaults resolved. */
  readonly limits: Readonly<ServingLimits>;
  /**
   * Drains, then closes: readiness turns 503, then after the drain delay the server stops
   * accepting connections, answers what is already on its connections (with `Connection: close`),
   * lets idle connections expire, and cuts what is left at the drain timeout.
   */
  close(): Promise<void>;
}

interface Mount {
  server: ToolsetServer;
  path: string;
  handler: McpHttpHandler;
  node: NodeMcpRequestHandler;
  /** Where the SDK's and the bridge's errors go: clipped and rate-limited. */
  onerror: (error: Error) => void;
  /** 2025-era sessions, when on: legacy requests go there instead of the stateless handler. */
  sessions?: LegacySessions;
  /** Declared credential headers: each may appear once per request. */
  credentialHeaders: ReadonlySet<string>;
}

const MCP_METHODS = new Set(['GET', 'POST', 'DELETE']);
/** Levels a JSON-RPC message adds around a tool's arguments (batch, message, params, arguments, and slack). */
const ENVELOPE_DEPTH = 8;
/**
 * The body prescan refuses only what is far beyond the argument limits (this many times), before
 * parsing; anything nearer reaches the tool's argument guard, which answers with an isError.
 */
const PRESCAN_FACTOR = 4;
const PRESCAN_MESSAGES = {
  depth: 'Invalid Request: the body nests far deeper than this server accepts in arguments (MAX_ARGUMENT_DEPTH).',
  items: 'Invalid Request: the body holds far more array items than this server accepts in arguments (MAX_ARGUMENT_ITEMS).',
  keys: 'Invalid Request: the body holds an object with far more keys than this server accepts in arguments (MAX_ARGUMENT_ITEMS).',
  string: 'Invalid Request: the body holds a string far longer than this server accepts in arguments (MAX_ARGUMENT_STRING_LENGTH).',
} as const;
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Serves over streamable HTTP, stateless: one server at `/mcp`, or several at `/<name>/mcp` with an
 * index at `/`. Each request gets a fresh SDK `Server` from the precomputed definitions, so one
 * endpoint answers 2026-07-28 and 2025-era clients and replicas need no shared state.
 */
export async function serveHttp(servers: ToolsetServer | readonly ToolsetServer[], options: HttpServeOptions = {}): Promise<HttpServerHandle> {
  const list = Array.isArray(servers) ? servers : [servers as ToolsetServer];
  const single = !Array.isArray(servers);
  const host = options.host ?? '127.0.0.1';
  const limits = resolveServingLimits(pickLimits(options));
  const logger = rateLimitedLogger(options.logger ?? list[0]?.logger ?? stderrLogger);
  const mounts = createMounts(list, single, limits, logger, options.sessions === true);
  const hostPolicy = new HostPolicy({ host, allowedHosts: options.allowedHosts, corsOrigins: options.corsOrigins });
  if (!hostPolicy.checksNames) logger.warn('bound to a non-loopback address without ALLOWED_HOSTS: Host and Origin names are not checked', { host });
  const cors = new CorsPolicy(options.corsOrigins ?? [], [...new Set(list.flatMap((server) => server.credentialHeaders))]);

  const http: NodeHttpServer = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the two timeouts above on this interval (30 s by default): check often enough to honour them.
    connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  });
  const connections = new ConnectionTracker(http, limits.maxConnections);
  const requests = new RequestTracker(connections);
  let origin = '';
  const describe = (): MountInfo[] =>
    mounts.map((mount) => ({
      name: mount.server.name,
      url: `${origin}${mount.path}`,
      tools: [...mount.server.catalog.tools.keys()],
      credentialHeaders: mount.server.credentialHeaders,
    }));

  const router = new Router(mounts, list, describe, requests, new BodyBudget(limits.maxBufferedBodyBytes), limits, cors);
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (connections.refused(req.socket)) return void res.destroy();
    requests.begin(res);
    if (requests.size > limits.maxRequestsInFlight) {
      return sendJsonRpcError(res, 503, SERVER_BUSY, 'Too many requests in flight; retry shortly.', { 'retry-after': '1' });
    }
    const target = requestTarget(req);
    if (!target) return sendJsonRpcError(res, 400, INVALID_REQUEST, 'Bad Request: the request target must be a path such as /mcp.');
    if (headerCounts(req, HOST_HEADER).get('host')! > 1) return sendJsonRpcError(res, 400, INVALID_REQUEST, 'Bad Request: more than one Host header.');
    const refusal = hostPolicy.check(req, target.authority);
    if (refusal) return sendJsonRpcError(res, refusal.status, INVALID_REQUEST, refusal.message);
    router.route(req, res, target.path).catch((error: Error) => {
      logger.error('http handler failed', { error: clip(error.message) });
      sendJsonRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
    });
  });

  await listen(http, options.port ?? 8000, host);
  const address = http.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    origin,
    mounts: describe(),
    limits,
    close() {
      closing ??= drain(http, connections, requests, limits, logger, () => mounts.forEach((m) => m.sessions?.endStreams())).then(() =>
        Promise.all(mounts.flatMap((m) => [m.handler.close(), m.sessions?.closeAll()])).then(() => undefined),
      );
      return closing;
    },
  };
}

const HOST_HEADER: ReadonlySet<string> = new Set(['host']);

function pickLimits(options: HttpServeOptions): Partial<ServingLimits> {
  const { host: _host, port: _port, allowedHosts: _allowed, corsOrigins: _cors, sessions: _sessions, logger: _logger, ...limits } = options;
  return limits;
}

function createMounts(list: readonly ToolsetServer[], single: boolean, limits: ServingLimits, logger: Logger, sessions: boolean): Mount[] {
  // The SDK's own errors can quote client input (a tool name, a header): cut it, and rate-limit the line.
  const onerror = (error: Error) => logger.warn('mcp request failed', { error: clip(error.message) });
  return list.map((server) => {
    const factory = server.serverFactory({ argumentLimits: argumentLimitsOf(limits) });
    // With sessions, 2025-era traffic is routed to them before it reaches this handler.
    const handler = createMcpHandler(factory, { legacy: sessions ? 'reject' : 'stateless', maxRequestBodySize: limits.maxBodyBytes, onerror });
    return {
      server,
      path: single ? '/mcp' : `/${server.name}/mcp`,
      handler,
      node: toNodeHandler(handler, { maxRequestBodySize: limits.maxBodyBytes, onerror }),
      onerror,
      ...(sessions && {
        sessions: new LegacySessions(server.serverFactory({ argumentLimits: argumentLimitsOf(limits), subscriptions: true }), server.credentialHeaders, limits, logger),
      }),
      credentialHeaders: new Set(server.credentialHeaders),
    };
  });
}

/** Requests being served, and the responses that may still take `Connection: close`. */
class RequestTracker {
  readonly #active = new Set<ServerResponse>();
  #draining = false;
  #closing = false;
  #onIdle: (() => void) | undefined;

  constructor(private readonly connections: ConnectionTracker) {}

  get size(): number {
    return this.#active.size;
  }

  get draining(): boolean {
    return this.#draining;
  }

  begin(res: ServerResponse): void {
    this.#active.add(res);
    if (this.#closing) res.setHeader('connection', 'close');
    const connection = this.connections.use(res.socket);
    if (connection) connection.active++;
    res.once('close', () => {
      if (connection) {
        connection.active--;
        connection.lastDone = Date.now();
      }
      this.#active.delete(res);
      if (this.#active.size === 0) this.#onIdle?.();
    });
  }

  /** Readiness turns 503; connections stay as they are, so a balancer keeps reusing them rather than opening new ones. */
  startDraining(): void {
    this.#draining = true;
  }

  /** From now on every response closes its connection, including those not yet started. */
  closeConnections(): void {
    this.#closing = true;
    for (const res of this.#active) if (!res.headersSent) res.setHeader('connection', 'close');
  }

  whenIdle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onIdle = resolve));
  }
}

/** Routes one request that passed the guards: an MCP endpoint, the index, health, readiness, or 404. */
class Router {
  readonly #byPath: ReadonlyMap<string, Mount>;
  private readonly prescan: PrescanLimits;
  private readonly catalogPage: CatalogPage;

  constructor(
    mounts: readonly Mount[],
    private readonly servers: readonly ToolsetServer[],
    private readonly describe: () => MountInfo[],
    private readonly requests: RequestTracker,
    private readonly budget: BodyBudget,
    private readonly limits: ServingLimits,
    private readonly cors: CorsPolicy,
  ) {
    this.#byPath = new Map(mounts.map((mount) => [mount.path, mount]));
    this.catalogPage = new CatalogPage(mounts);
    this.prescan = {
      maxDepth: PRESCAN_FACTOR * limits.maxArgumentDepth + ENVELOPE_DEPTH,
      maxItems: PRESCAN_FACTOR * limits.maxArgumentItems,
      // A character takes up to 6 bytes (a \uXXXX escape): no string within the limit is refused here.
      maxStringBytes: 6 * limits.maxArgumentStringLength,
    };
  }

  async route(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const mount = this.#byPath.get(path);
    if (mount) return this.serveMcp(mount, req, res);
    const page = this.page(path);
    if (!page) return sendJson(res, 404, { error: `Nothing at ${clip(path)}. MCP endpoints: ${[...this.#byPath.keys()].join(', ')}.` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD' });
    // The index is a page for browsers and JSON for everything else.
    if (path === '/' && wantsHtml(req)) return this.catalogPage.send(req, res);
    const [status, body] = page();
    sendJson(res, status, body, path === '/' ? { vary: 'Accept' } : {});
  }

  private page(path: string): (() => [number, unknown]) | undefined {
    if (path === '/') return () => [200, { servers: this.describe() }];
    if (path === '/health') return () => [200, health(this.servers, this.requests.draining)];
    if (path === '/ready') return () => (this.requests.draining ? [503, { status: 'draining' }] : [200, { status: 'ready' }]);
    const mounted = [...this.#byPath.values()].find((m) => path === m.path.replace(/\/mcp$/, '/health'));
    if (mounted) return () => [200, health([mounted.server], this.requests.draining)];
    return undefined;
  }

  private async serveMcp(mount: Mount, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.cors.apply(req, res);
    if (req.method === 'OPTIONS' && this.cors.preflight(req, res)) return;
    if (!MCP_METHODS.has(req.method ?? '')) {
      return sendJsonRpcError(res, 405, INVALID_REQUEST, 'Method not allowed: MCP uses POST (and GET, DELETE).', { allow: 'GET, POST, DELETE' });
    }
    const repeated = [...headerCounts(req, mount.credentialHeaders)].find(([, count]) => count > 1);
    if (repeated) {
      return sendJsonRpcError(res, 400, INVALID_REQUEST, `The ${repeated[0]} header was sent ${repeated[1]} times; send it once, with one credential.`);
    }
    const version = req.headers['mcp-protocol-version'] as string | undefined;
    if (version !== undefined && !PROTOCOL_VERSION.test(version)) {
      return sendJsonRpcError(res, 400, INVALID_REQUEST, `Bad MCP-Protocol-Version header ${JSON.stringify(clip(version, 40))}: expected a version such as 2025-06-18.`);
    }
    // A listener opened while draining would hold the drain to its timeout: send it elsewhere.
    if (req.method === 'GET' && this.requests.draining) return sendJsonRpcError(res, 503, SERVER_BUSY, 'Shutting down: open the stream again on another replica.', { 'retry-after': '1' });
    // 2025-era session operations (GET streams, DELETE) have no 2026-07-28 counterpart here.
    if (req.method !== 'POST') return mount.sessions ? mount.sessions.handle(req, res) : mount.node(req, res);

    const body = await readBody(req, this.limits.maxBodyBytes, this.budget);
    if (body instanceof BodyAborted) return;
    if (body instanceof BodyRefusal) {
      // The rest of the body is unread: close the connection rather than read it.
      const headers: Record<string, string> = { connection: 'close', ...(body.status === 503 && { 'retry-after': '1' }) };
      sendJsonRpcError(res, body.status, body.status === 503 ? SERVER_BUSY : INVALID_REQUEST, body.message, headers);
      return;
    }
    const excess = prescanJson(body, this.prescan);
    if (excess) return sendJsonRpcError(res, 400, INVALID_REQUEST, PRESCAN_MESSAGES[excess]);
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null) {
      return sendJsonRpcError(res, 400, INVALID_REQUEST, 'Invalid Request: the body must be a JSON-RPC message (an object) or a batch (an array).');
    }
    if (hasPrototypeKey(text, parsed)) return sendJsonRpcError(res, 400, INVALID_REQUEST, PROTOTYPE_KEY_MESSAGE);
    const badInitialize = invalidInitializeParams(parsed);
    if (badInitialize) return sendJson(res, 400, { jsonrpc: '2.0', id: idOf(parsed), error: { code: INVALID_PARAMS, message: badInitialize } });
    if (mount.sessions && (await isLegacyRequest(webRequestHead(req), parsed))) return mount.sessions.handle(req, res, parsed);
    return bridgeParsedRequest(mount.handler, req, res, parsed, mount.onerror);
  }
}

/** The request line and headers as a fetch `Request`, for the SDK's era classification (the body is passed parsed). */
function webRequestHead(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request('http://localhost/mcp', { method: req.method, headers });
}

function health(servers: readonly ToolsetServer[], draining: boolean) {
  return {
    status: draining ? 'draining' : 'ok',
    tools: servers.flatMap((server) => [...server.catalog.tools.keys()]),
    credentialHeaders: [...new Set(servers.flatMap((server) => server.credentialHeaders))],
  };
}

function listen(http: NodeHttpServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}

/** The drain: readiness first, then stop accepting, answer what is in flight, let idle connections expire. */
async function drain(
  http: NodeHttpServer,
  connections: ConnectionTracker,
  requests: RequestTracker,
  limits: ServingLimits,
  logger: Logger,
  endStreams: () => void,
): Promise<void> {
  requests.startDraining();
  if (limits.drainDelayMs > 0) await sleep(limits.drainDelayMs);
  // Session listeners (2025-era GET streams) never end by themselves: end them, not the calls in flight.
  endStreams();
  // net.Server's close stops accepting only; http.Server's would also cut idle keep-alive
  // connections at once, resetting requests that are already on their way over them.
  let stopped!: Promise<void>;
  const moment = await atQuietMoment(connections, limits, () => {
    stopped = new Promise<void>((resolve) => NetServer.prototype.close.call(http, () => resolve()));
  });
  if (moment === 'never_quiet') logger.warn(`stopped accepting connections after DRAIN_TIMEOUT_MS although they kept arriving: some may have been reset`);
  if (moment === 'no_idle') logger.warn('stopped accepting connections without idle ones in the balancer: it may have had new connections on their way');
  // Only now: closing connections earlier makes a balancer open new ones, which the listener's
  // close would reset with their requests already sent.
  requests.closeConnections();
  const timeout = sleep(limits.drainTimeoutMs);
  await Promise.race([requests.whenIdle().then(() => connections.whenEmpty()), timeout]);
  http.closeAllConnections();
  await stopped;
}

/** How long the drain waits, once quiet, for a moment when the balancer holds idle connections to this replica. */
const IDLE_MOMENT_WAIT_MS = 2_000;
/** Idle connections that make a new one unlikely in the next moment (one may be taking a request already). */
const IDLE_CONNECTIONS_WANTED = 2;
/** How long ago a connection's last answer must have ended for the balancer to hold it idle (it may lag behind under load). */
const ANSWER_SETTLED_MS = 25;
/** The longest poll phase after which the listener may close: connections the kernel queued during it are not yet accepted. */
const QUICK_POLL_MS = 1;

/**
 * Runs `close` at a moment when no connection can be on its way: closing a listener resets the
 * connections the kernel has established but the server has not yet accepted, with their requests
 * already sent, and neither a client nor a balancer can retry those POSTs. So it waits until
 * - no connection has arrived for `drainQuietMs` (at most `drainTimeoutMs`): a burst has ended;
 * - the balancer holds idle connections to this replica (at most IDLE_MOMENT_WAIT_MS once quiet):
 *   it opens a new connection only when it has no idle one;
 * - the check phase right after a quick poll phase: what the kernel queued before it was accepted
 *   in it (libuv accepts the whole queue), and little time was left for more.
 * Says which condition it gave up on, if any.
 */
async function atQuietMoment(connections: ConnectionTracker, limits: ServingLimits, close: () => void): Promise<'found' | 'no_idle' | 'never_quiet'> {
  const started = Date.now();
  let quietSince: number | undefined;
  for (;;) {
    // Timers phase (the sleep below), then a poll phase, then the check phase.
    const beforePoll = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const now = Date.now();
    const quickPoll = performance.now() - beforePoll <= QUICK_POLL_MS;
    const quiet = connections.sinceLastArrival() >= limits.drainQuietMs;
    quietSince = quiet ? (quietSince ?? now) : undefined;
    const idle = connections.idleInBalancer(ANSWER_SETTLED_MS) >= Math.min(IDLE_CONNECTIONS_WANTED, connections.size);
    let outcome: 'found' | 'no_idle' | 'never_quiet' | undefined;
    if (quickPoll && quiet) outcome = idle ? 'found' : now - quietSince! >= IDLE_MOMENT_WAIT_MS ? 'no_idle' : undefined;
    if (!outcome && now - started >= limits.drainTimeoutMs) outcome = 'never_quiet';
    if (outcome) {
      close();
      return outcome;
    }
    await sleep(2);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
