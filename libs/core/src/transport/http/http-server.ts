import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { clip } from '../../helpers/client-text';
import type { ServerDefinition } from '../../server/build-server';
import { stderrLogger, type Logger } from '../../server/logging/logger';
import { rateLimitedLogger } from '../../server/logging/rate-limited-logger';
import { BodyBudget } from '../guards/body-budget';
import { CorsPolicy } from '../guards/cors-policy';
import { HostPolicy } from '../guards/host-policy';
import { headerCounts, requestTarget } from '../guards/request-target';
import { INTERNAL_ERROR, INVALID_REQUEST, SERVER_BUSY } from '../jsonrpc-errors';
import { argumentLimitsOf, resolveServingLimits, type ServingLimits } from '../serving-limits';
import { connectionsWithin, openFileLimit } from './open-file-limit';
import { ConnectionTracker } from './drain/connection-tracker';
import { drain } from './drain/drain';
import { RequestTracker } from './drain/request-tracker';
import { sendJsonRpcError } from './http-replies';
import { MetricsServing } from './metrics-serving';
import { listen, originOf } from './listening';
import { Router } from './router';
import type { Mount, MountInfo } from './mount';
import { ListAnswers, type ListHint } from './list-answers';
import { LegacySessions } from './sessions/legacy-sessions';
import type { AuthOptions } from '../../server/request/auth-options';
import { prepareMountAuth, type MountPlan } from '../auth/mount-auths';
import type { MountAuth } from '../auth/mount-auth';
import { ServerCards } from './server-card';
import { CLIENT_CREDENTIALS_EXTENSION } from '../../wire/server-card';

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
  /**
   * Answer `tools/list` (per selection), `prompts/list`, `resources/list` and
   * `resources/templates/list` from bytes serialised once, with the list's hash as `ETag`.
   * Default on; off sends every list through the SDK, as every other request goes.
   */
  cacheLists?: boolean;
  /**
   * Answer `tools/call` requests of both eras without building an SDK server, transport and fetch
   * `Request` for each (`MCP_FAST_PATH=off` turns it off): the same handler, checks and bytes,
   * at a fraction of the CPU. Default on; anything it does not take (progress, log levels, tasks
   * asked for, retries, batches, 2025-era sessions) goes through the SDK either way.
   */
  fastPath?: boolean;
  /**
   * Check an OAuth access token on every MCP request (`AUTH_ISSUER`, …): the server as an OAuth 2.1
   * resource server, with per-tool scopes from `@RequireScopes`. Off when unset.
   */
  auth?: AuthOptions;
  /**
   * The URL clients reach this server at (`PUBLIC_URL`, such as https://mcp.example.com): each
   * mount's resource identifier and default token audience is it plus the mount's path. Default:
   * the bound address, which only a loopback server may rely on.
   */
  publicUrl?: string;
  /**
   * Serve Prometheus metrics at `/metrics` (`METRICS=on`): the `mcp.server.operation.duration`
   * histogram of every mount, behind the same Host/Origin policy as the rest.
   */
  metrics?: boolean;
  /** Serve `/metrics` on this port instead of the MCP port (`METRICS_PORT`), on the same host; 0 picks a free one. */
  metricsPort?: number;
  /**
   * A bearer token `/metrics` asks for (`METRICS_TOKEN`), wherever it is served. Required when a
   * mount checks access tokens and `/metrics` shares the MCP port: metrics name every tool.
   */
  metricsToken?: string;
  /**
   * The reverse-DNS namespace of the servers' names in their Server Cards (`MCP_NAMESPACE`, such as
   * `io.github.acme`): a server's card is named `<namespace>/<server name>` unless its `card.name` says otherwise.
   */
  namespace?: string;
  logger?: Logger;
}

export type { MountInfo } from './mount';

export interface HttpServerHandle {
  /** `http://host:port` */
  readonly origin: string;
  readonly mounts: readonly MountInfo[];
  /** The limits in force, defaults resolved. */
  readonly limits: Readonly<ServingLimits>;
  /** Where Prometheus scrapes, when metrics are on. */
  readonly metricsUrl?: string;
  /**
   * Drains, then closes: readiness turns 503, then after the drain delay the server stops
   * accepting connections, answers what is already on its connections (with `Connection: close`),
   * lets idle connections expire, and cuts what is left at the drain timeout.
   */
  close(): Promise<void>;
}

/**
 * Serves over streamable HTTP, stateless: one server at `/mcp`, or several at `/<name>/mcp` with an
 * index at `/`. Each request gets a fresh SDK `Server` from the precomputed definitions, so one
 * endpoint answers 2026-07-28 and 2025-era clients and replicas need no shared state.
 */
export async function serveHttp(servers: ServerDefinition | readonly ServerDefinition[], options: HttpServeOptions = {}): Promise<HttpServerHandle> {
  const list = Array.isArray(servers) ? servers : [servers as ServerDefinition];
  const single = !Array.isArray(servers);
  const host = options.host ?? '127.0.0.1';
  const limits = resolveServingLimits(pickLimits(options));
  const logger = rateLimitedLogger(options.logger ?? list[0]?.logger ?? stderrLogger);
  const plans = list.map((server) => ({ server, path: single ? '/mcp' : `/${server.name}/mcp` }));
  // Doors first: a mount that checks tokens advertises OAuth client credentials in what its servers say.
  const doors = await prepareMountAuth(plans, options.auth, { host, publicUrl: options.publicUrl }, logger);
  const mounts = createMounts(plans, doors, limits, logger, options.sessions === true, options.fastPath !== false);
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
  // Idle connections are held for twice their advertised keep-alive time (see ConnectionTracker).
  const connections = new ConnectionTracker(http, fittedConnections(limits.maxConnections, logger), limits.keepAliveTimeoutMs);
  const requests = new RequestTracker(connections);
  let origin = '';
  const describe = (): MountInfo[] => mounts.map((mount) => describeMount(mount, origin));

  const lists = options.cacheLists === false ? undefined : new ListAnswers();
  const metrics = MetricsServing.of(options, hostPolicy, logger, mounts.some((mount) => mount.auth !== undefined));
  const cards = new ServerCards(mounts, () => ({ base: options.publicUrl || origin, ...(options.namespace && { namespace: options.namespace }) }));
  const router = new Router(mounts, describe, requests, new BodyBudget(limits.maxBufferedBodyBytes), limits, cors, cards, lists, metrics.onMcpPort);
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

  await listenBoth(http, options.port ?? 8000, metrics, host);
  origin = originOf(http);
  const metricsUrl = metrics.url(origin);
  // Before any request is read (this runs ahead of the next I/O); until then a mount with a door answers 503.
  for (const mount of mounts) mount.auth?.bind(options.publicUrl || origin);

  let closing: Promise<void> | undefined;
  return {
    origin,
    mounts: describe(),
    limits,
    ...(metricsUrl && { metricsUrl }),
    close() {
      closing ??= drain(http, connections, requests, limits, logger, () => mounts.forEach((m) => m.sessions?.endStreams())).then(() =>
        Promise.all([...mounts.flatMap((m) => [m.handler.close(), m.sessions?.closeAll()]), metrics.close()]).then(() => undefined),
      );
      return closing;
    },
  };
}

const HOST_HEADER: ReadonlySet<string> = new Set(['host']);

/**
 * The connection cap, lowered to fit the process's open-file limit: a cap the limit cannot reach
 * never answers 503; the process runs out of files first, and a new connection meets silence or a
 * reset instead of an answer, however few requests it brings.
 */
function fittedConnections(maxConnections: number, logger: Logger): number {
  const fileLimit = openFileLimit();
  if (fileLimit === undefined || maxConnections <= connectionsWithin(fileLimit)) return maxConnections;
  const fitted = connectionsWithin(fileLimit);
  logger.warn(
    `MAX_CONNECTIONS (${maxConnections}) does not fit this process's open-file limit (${fileLimit}, ulimit -n): at most ${fitted} connections are held, so one more still gets its 503. ` +
      'Raise the limit (ulimit -n 65536; LimitNOFILE= under systemd; --ulimit nofile= for a container) or lower MAX_CONNECTIONS.',
    { maxConnections, fileLimit, fitted },
  );
  return fitted;
}

function describeMount(mount: Mount, origin: string): MountInfo {
  const { whole, groups, discovery, code } = mount.server.views.sizes;
  return {
    name: mount.server.name,
    url: `${origin}${mount.path}`,
    tools: [...mount.server.catalog.tools.keys()],
    credentialHeaders: mount.server.credentialHeaders,
    toolsets: groups,
    list: { bytes: whole.bytes, estimatedTokens: whole.estimatedTokens },
    discoveryList: discovery,
    ...(code && { codeList: code }),
    ...(mount.auth && { oauth: mount.auth.describe() }),
  };
}

function pickLimits(options: HttpServeOptions): Partial<ServingLimits> {
  const { host: _host, port: _port, allowedHosts: _allowed, corsOrigins: _cors, sessions: _sessions, cacheLists: _cacheLists, fastPath: _fastPath, auth: _auth, publicUrl: _publicUrl, metrics: _metrics, metricsPort: _metricsPort, metricsToken: _metricsToken, namespace: _namespace, logger: _logger, ...limits } = options;
  return limits;
}

function createMounts(plans: readonly MountPlan[], doors: ReadonlyMap<ServerDefinition, MountAuth>, limits: ServingLimits, logger: Logger, sessions: boolean, fastPath: boolean): Mount[] {
  // The SDK's own errors can quote client input (a tool name, a header): cut it, and rate-limit the line.
  const onerror = (error: Error) => logger.warn('mcp request failed', { error: clip(error.message) });
  return plans.map(({ server, path }) => {
    const auth = doors.get(server);
    // Any token from the issuer is checked alike, so one a client got with its own credentials (no user) is accepted.
    const extensions = auth ? { [CLIENT_CREDENTIALS_EXTENSION]: {} } : undefined;
    // Where no token shapes the lists, every caller with the same selection gets the same bytes: shared caches may keep them.
    const listHint: ListHint = { ttlMs: server.listTtlMs, cacheScope: auth ? 'private' : 'public' };
    const connection = { argumentLimits: argumentLimitsOf(limits), cacheScope: listHint.cacheScope, ...(extensions && { extensions }) };
    const factory = server.serverFactory(connection);
    // With sessions, 2025-era traffic is routed to them before it reaches this handler.
    const handler = createMcpHandler(factory, { legacy: sessions ? 'reject' : 'stateless', maxRequestBodySize: limits.maxBodyBytes, keepAliveMs: limits.streamKeepAliveMs, onerror });
    return {
      server,
      path,
      listHint,
      handler,
      node: toNodeHandler(handler, { maxRequestBodySize: limits.maxBodyBytes, onerror }),
      onerror,
      ...(sessions && {
        sessions: new LegacySessions(server.serverFactory({ argumentLimits: argumentLimitsOf(limits), subscriptions: true, ...(extensions && { extensions }) }), server.credentialHeaders, limits, logger),
      }),
      credentialHeaders: new Set(server.credentialHeaders),
      ...(auth && { auth }),
      ...(fastPath && { calls: server.directCalls(connection) }),
    };
  });
}

/** The MCP port, then the metrics port if it has one; when either cannot listen, neither stays open. */
async function listenBoth(http: NodeHttpServer, port: number, metrics: MetricsServing, host: string): Promise<void> {
  try {
    await listen(http, port, host);
    await metrics.listen(host);
  } catch (error) {
    http.close();
    await metrics.close();
    throw error;
  }
}
