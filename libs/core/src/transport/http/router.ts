import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY, UnsupportedProtocolVersionError, type AuthInfo } from '@modelcontextprotocol/server';
import { SelectionError } from '../../errors/selection.error';
import { rememberRouting } from '../../context/routed-request';
import { clip } from '../../helpers/client-text';
import { paramHeaderMismatch } from '../../compiled/param-headers';
import { MODERN_REVISIONS } from '../../wire/protocol-revisions';
import { CatalogSlice } from '../../selection/catalog-slice';
import { anonymousView, credentialHeadersOf } from './anonymous-view';
import type { BodyBudget } from '../guards/body-budget';
import { BodyAborted, BodyRefusal, readBody } from '../guards/body-reader';
import type { CorsPolicy } from '../guards/cors-policy';
import { invalidInitializeParams } from '../guards/initialize-check';
import { prescanJson, type PrescanLimits } from '../guards/json-prescan';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from '../guards/prototype-key';
import { headerCounts, headerValue } from '../guards/request-target';
import { HEADER_MISMATCH, idOf, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, SERVER_BUSY } from '../jsonrpc-errors';
import type { ServingLimits } from '../serving-limits';
import { CatalogPage, VIEW_PREFIX, wantsHtml } from './catalog-page-route';
import type { RequestTracker } from './drain/request-tracker';
import { bridgeParsedRequest, webRequest } from './fetch-bridge';
import { isTaskListen, serveTaskListen } from './task-listen-stream';
import { answerFastCall, fastCallOf } from './fast-calls';
import { sendJson, sendJsonRpcError } from './http-replies';
import type { Mount, MountInfo } from './mount';
import type { ListAnswers } from './list-answers';
import { METRICS_PATH, type MetricsEndpoint } from './metrics-endpoint';
import type { ServerCards } from './server-card';
import { PROTECTED_RESOURCE_PREFIX, type Authenticated } from '../auth/mount-auth';

export type { Mount } from './mount';

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

/** Routes one request that passed the guards: an MCP endpoint, the index, health, readiness, or 404. */
export class Router {
  readonly #byPath: ReadonlyMap<string, Mount>;
  private readonly prescan: PrescanLimits;
  private readonly catalogPage: CatalogPage;

  constructor(
    mounts: readonly Mount[],
    private readonly describe: () => MountInfo[],
    private readonly requests: RequestTracker,
    private readonly budget: BodyBudget,
    private readonly limits: ServingLimits,
    private readonly cors: CorsPolicy,
    /** Server Cards and the AI Catalog. */
    private readonly cards: ServerCards,
    /** Serialised list answers; undefined sends every list through the SDK. */
    private readonly lists?: ListAnswers,
    /** `/metrics`, when it is served on this port. */
    private readonly metrics?: MetricsEndpoint,
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
    if (path.startsWith(PROTECTED_RESOURCE_PREFIX)) return this.protectedResource(req, res, path);
    if (path === METRICS_PATH && this.metrics) return this.metrics.serve(req, res);
    if (this.cards.serve(req, res, path)) return;
    if (path.startsWith(VIEW_PREFIX) && (req.method === 'GET' || req.method === 'HEAD') && this.catalogPage.sendView(req, res, path)) return;
    this.sendPage(req, res, path);
  }

  /** The index, health and readiness, or 404. */
  private sendPage(req: IncomingMessage, res: ServerResponse, path: string): void {
    const page = this.page(path);
    if (!page) return sendJson(res, 404, { error: `Nothing at ${clip(path)}. MCP endpoints: ${[...this.#byPath.keys()].join(', ')}.` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD' });
    // The index is a page for browsers and JSON for everything else.
    if (path === '/' && wantsHtml(req)) return this.catalogPage.send(req, res);
    const [status, body] = page();
    sendJson(res, status, body, path === '/' ? { vary: 'Accept' } : {});
  }

  private page(path: string): (() => [number, unknown]) | undefined {
    if (path === '/') return () => [200, { servers: this.describe().map((info, index) => publicInfo(info, [...this.#byPath.values()][index]!)) }];
    if (path === '/health') return () => [200, health([...this.#byPath.values()], this.requests.draining)];
    if (path === '/ready') return () => (this.requests.draining ? [503, { status: 'draining' }] : [200, { status: 'ready' }]);
    const mounted = [...this.#byPath.values()].find((m) => path === m.path.replace(/\/mcp$/, '/health'));
    if (mounted) return () => [200, health([mounted], this.requests.draining)];
    return undefined;
  }

  private async serveMcp(mount: Mount, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.cors.apply(req, res);
    if (req.method === 'OPTIONS' && this.cors.preflight(req, res)) return;
    const admitted = await this.admit(mount, req, res);
    if (!admitted) return;
    // 2025-era session operations (GET streams, DELETE) have no 2026-07-28 counterpart here.
    if (req.method !== 'POST') return mount.sessions ? mount.sessions.handle(req, res) : mount.node(req, res);
    const parsed = await this.readMessage(req, res);
    if (parsed === undefined) return;
    this.requests.carries(res, parsed);
    return this.serveMessage(mount, req, res, parsed, admitted);
  }

  /**
   * What the request line and headers decide: a refusal (answered here, giving undefined), or the
   * view the request selects and, on a mount that checks tokens, its verified caller. The token is
   * checked before anything else about the request is looked at.
   */
  private async admit(mount: Mount, req: IncomingMessage, res: ServerResponse): Promise<Admitted | undefined> {
    const head = this.headRefusal(mount, req);
    if (head) return void sendJsonRpcError(res, head.status, head.code, head.message, head.headers);
    const auth = mount.auth && (await mount.auth.authenticate(req));
    if (auth && !('caller' in auth)) return void sendJson(res, auth.status, auth.body, auth.headers);
    const view = selectedView(mount, req);
    if (!(view instanceof CatalogSlice)) return void sendJsonRpcError(res, view.status, view.code, view.message, view.headers);
    // The SDK's sessionful transport reads the verified caller here (`req.auth`); the token itself is gone.
    if (auth) (req as IncomingMessage & { auth?: AuthInfo }).auth = auth.authInfo;
    return { view, auth };
  }

  /** One parsed POST body: refused, answered from the list cache, or handed to the SDK. */
  private async serveMessage(mount: Mount, req: IncomingMessage, res: ServerResponse, parsed: object, { view, auth }: Admitted): Promise<void> {
    const refused = await bodyRefusal(mount, req, parsed, view, auth);
    if (refused) return sendJson(res, refused.status, refused.body, refused.headers);
    // Lists are cached per view: with a token, the view its scopes allow.
    const seen = auth ? mount.server.views.view(view.selection, auth.caller.scopes) : view;
    // Decided once here: the server this request reaches reads both instead of deciding again.
    rememberRouting(req, { selected: view, seen });
    const headerMismatch = paramHeaderRefusal(req, parsed, seen);
    if (headerMismatch) return sendJson(res, 400, headerMismatch);
    // Task notifications are the tasks extension's part of subscriptions/listen, which the SDK's listen streams do not serve.
    if (mount.server.taskListens && isTaskListen(parsed) && routedAs(req, 'subscriptions/listen')) return serveTaskListen(mount.server.taskListens, req, res, parsed, auth?.caller, this.limits.streamKeepAliveMs);
    if (this.answerList(mount, seen, req, res, parsed)) return;
    if (await this.answerCall(mount, seen, view, req, res, parsed, auth)) return;
    if (mount.sessions && (await isLegacyRequest(webRequest(req), parsed))) return mount.sessions.handle(req, res, parsed);
    return bridgeParsedRequest(mount.handler, req, res, parsed, mount.onerror, auth?.authInfo);
  }

  /** A `tools/call` answered on the mount's fast path (in the catalog's own mode: discovery and code mode go to the SDK). */
  private async answerCall(mount: Mount, seen: CatalogSlice, selected: CatalogSlice, req: IncomingMessage, res: ServerResponse, parsed: object, auth: Authenticated | undefined): Promise<boolean> {
    const call = mount.calls && seen.selection.mode === 'tools' ? fastCallOf(req, parsed, mount.sessions !== undefined) : undefined;
    if (!call) return false;
    await answerFastCall(mount.calls!, call, req, res, selected, auth?.authInfo, this.limits.streamKeepAliveMs);
    return true;
  }

  /** A list answered from the cache, with its span and measurement (it never reaches the SDK's traced handlers). */
  private answerList(mount: Mount, view: CatalogSlice, req: IncomingMessage, res: ServerResponse, parsed: object): boolean {
    if (!this.lists) return false;
    const startedAt = performance.now();
    if (!this.lists.tryAnswer(mount.server, view, req, res, parsed, mount.sessions !== undefined, mount.listHint)) return false;
    const message = parsed as { method: string; id?: unknown; params?: { _meta?: Record<string, unknown> } };
    const version = headerValue(req, 'mcp-protocol-version') ?? (message.params?._meta?.[PROTOCOL_VERSION_META_KEY] as string | undefined);
    mount.server.telemetry?.answered(message.method, message, { get: (name) => headerValue(req, name) }, version, startedAt);
    return true;
  }

  /** RFC 9728 metadata of a mount that checks tokens: public, at its well-known path (and the root's, for a single mount). */
  private protectedResource(req: IncomingMessage, res: ServerResponse, path: string): void {
    const doors = [...this.#byPath.values()].flatMap((mount) => (mount.auth ? [mount.auth] : []));
    const door = doors.find((auth) => auth.metadataPaths.includes(path)) ?? (path === PROTECTED_RESOURCE_PREFIX && this.#byPath.size === 1 ? doors[0] : undefined);
    if (!door) return sendJson(res, 404, { error: `No protected resource at ${clip(path)}: ${doors.length > 0 ? `see ${doors.flatMap((d) => d.metadataPaths).join(', ')}` : 'no MCP endpoint here checks access tokens'}.` });
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD' });
    // Public by nature (RFC 9728 §3): any origin may read it.
    sendJson(res, 200, door.metadata(), { 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' });
  }

  /** Why the request line and headers alone refuse this request, if they do. */
  private headRefusal(mount: Mount, req: IncomingMessage): Refusal | undefined {
    if (!MCP_METHODS.has(req.method ?? '')) {
      return { status: 405, code: INVALID_REQUEST, message: 'Method not allowed: MCP uses POST (and GET, DELETE).', headers: { allow: 'GET, POST, DELETE' } };
    }
    const repeated = [...headerCounts(req, mount.credentialHeaders)].find(([, count]) => count > 1);
    if (repeated) return { status: 400, code: INVALID_REQUEST, message: `The ${repeated[0]} header was sent ${repeated[1]} times; send it once, with one credential.` };
    // A POST's malformed version is answered once its body is read, with its id (malformedVersion); a stream or a DELETE has no id to answer.
    const version = req.headers['mcp-protocol-version'] as string | undefined;
    if (req.method !== 'POST' && version !== undefined && !PROTOCOL_VERSION.test(version)) {
      return { status: 400, code: INVALID_REQUEST, message: `Bad MCP-Protocol-Version header ${JSON.stringify(clip(version, 40))}: expected a version such as 2025-06-18.` };
    }
    // A listener opened while draining would hold the drain to its timeout: send it elsewhere.
    if (req.method === 'GET' && this.requests.draining) {
      return { status: 503, code: SERVER_BUSY, message: 'Shutting down: open the stream again on another replica.', headers: { 'retry-after': '1' } };
    }
    return undefined;
  }

  /** The POST body as one parsed JSON-RPC message or batch; otherwise answers the refusal and gives undefined. */
  private async readMessage(req: IncomingMessage, res: ServerResponse): Promise<object | undefined> {
    const body = await readBody(req, this.limits.maxBodyBytes, this.budget);
    if (body instanceof BodyAborted) return undefined;
    if (body instanceof BodyRefusal) {
      // The rest of the body is unread: close the connection rather than read it.
      const headers: Record<string, string> = { connection: 'close', ...(body.status === 503 && { 'retry-after': '1' }) };
      return void sendJsonRpcError(res, body.status, body.status === 503 ? SERVER_BUSY : INVALID_REQUEST, body.message, headers);
    }
    const excess = prescanJson(body, this.prescan);
    if (excess) return void sendJsonRpcError(res, 400, INVALID_REQUEST, PRESCAN_MESSAGES[excess]);
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return void sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: the request body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null) {
      return void sendJsonRpcError(res, 400, INVALID_REQUEST, 'Invalid Request: the body must be a JSON-RPC message (an object) or a batch (an array).');
    }
    if (hasPrototypeKey(text, parsed)) return void sendJsonRpcError(res, 400, INVALID_REQUEST, PROTOTYPE_KEY_MESSAGE);
    return parsed;
  }
}

/** A request let in: the view it selects, and its verified caller on a mount that checks tokens. */
interface Admitted {
  view: CatalogSlice;
  auth?: Authenticated;
}

/** A JSON-RPC error answer, decided before the body is read. */
interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * The view of the catalog this request selects (`?toolsets=`, `X-MCP-Toolsets`, read-only, mode),
 * or, for a selection this server cannot serve, a 400 that says what it has. Checked here, before
 * the SDK builds a server for the request.
 */
/** Why the parsed body alone refuses the request: a version that is none, a bad 2025-era initialize, a scope the token lacks. */
async function bodyRefusal(mount: Mount, req: IncomingMessage, parsed: object, view: CatalogSlice, auth: Authenticated | undefined): Promise<{ status: number; body: object; headers?: Record<string, string> } | undefined> {
  const badVersion = malformedVersion(req, parsed);
  if (badVersion) return { status: 400, body: badVersion };
  // A 2025-era initialize with bad params gets one readable line; on the 2026-07-28 wire initialize is a removed method, answered by the SDK (404, -32601).
  const badInitialize = invalidInitializeParams(parsed);
  if (badInitialize && (await isLegacyRequest(webRequest(req), parsed))) return { status: 400, body: { jsonrpc: '2.0', id: idOf(parsed), error: { code: INVALID_PARAMS, message: badInitialize } } };
  const forbidden = auth && mount.auth!.scopeRefusal(parsed, view, auth.caller);
  return forbidden ? { status: forbidden.status, body: forbidden.body, headers: forbidden.headers } : undefined;
}

/** Whether a 2026-07-28 request names `method` in its headers as it must (otherwise the SDK refuses it). */
function routedAs(req: IncomingMessage, method: string): boolean {
  return MODERN_REVISIONS.has(headerValue(req, 'mcp-protocol-version') ?? '') && headerValue(req, 'mcp-method')?.trim() === method;
}

/**
 * The answer to a POST whose MCP-Protocol-Version is not a version at all: UnsupportedProtocolVersion
 * with the request's id and the revisions served, as the SDK answers an unknown one, but naming the
 * value clipped (the SDK would echo a header of any length).
 */
function malformedVersion(req: IncomingMessage, parsed: object): object | undefined {
  const version = headerValue(req, 'mcp-protocol-version');
  if (version === undefined || PROTOCOL_VERSION.test(version)) return undefined;
  const error = new UnsupportedProtocolVersionError({ supported: [...MODERN_REVISIONS], requested: clip(version, 40) });
  return { jsonrpc: '2.0', id: idOf(parsed), error: { code: error.code, message: error.message, data: error.data } };
}

/**
 * A 2026-07-28 `tools/call` whose `Mcp-Param-*` headers (the arguments its tool marks with
 * `x-mcp-header`) disagree with its arguments: the answer refusing it (400, -32020 HeaderMismatch).
 */
function paramHeaderRefusal(req: IncomingMessage, parsed: object, view: CatalogSlice): object | undefined {
  const message = parsed as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return undefined;
  const headers = view.tools.get(message.params.name)?.paramHeaders;
  if (!headers || !MODERN_REVISIONS.has(headerValue(req, 'mcp-protocol-version') ?? '')) return undefined;
  const mismatch = paramHeaderMismatch(headers, message.params.arguments, (name) => headerValue(req, name));
  if (!mismatch) return undefined;
  return { jsonrpc: '2.0', id: idOf(parsed), error: { code: HEADER_MISMATCH, message: `Bad Request: the request headers and body disagree: ${mismatch.problem}`, data: { mismatch: { header: mismatch.header, body: mismatch.problem } } } };
}

function selectedView(mount: Mount, req: IncomingMessage): CatalogSlice | Refusal {
  try {
    return mount.server.views.forHttp(req.url ?? '/', (name) => headerValue(req, name));
  } catch (error) {
    if (error instanceof SelectionError) return { status: 400, code: INVALID_PARAMS, message: error.message };
    throw error;
  }
}

/**
 * Health, with the tools of the mounts anyone may list: a mount that checks tokens shows its
 * tools only to a caller whose token allows them, in `tools/list`.
 */
function health(mounts: readonly Mount[], draining: boolean) {
  return {
    status: draining ? 'draining' : 'ok',
    // Once each: a mount that serves others' toolsets together (the demo's /demo/mcp) names no tool twice.
    tools: [...new Set(mounts.flatMap((mount) => (mount.auth ? [] : [...mount.server.catalog.tools.keys()])))],
    // A mount that checks tokens names only what its toolsets open to a token without scopes read.
    credentialHeaders: [...new Set(mounts.flatMap((mount) => credentialHeadersOf(mount.server, anonymousView(mount.server, mount.auth !== undefined))))],
  };
}

/** A mount as the public index shows it: one that checks tokens says where to get one, not what it holds (nor the credentials of toolsets a token without scopes cannot see). */
function publicInfo(info: MountInfo, mount: Mount): MountInfo | Pick<MountInfo, 'name' | 'url' | 'credentialHeaders' | 'oauth'> {
  if (!info.oauth) return info;
  return { name: info.name, url: info.url, credentialHeaders: credentialHeadersOf(mount.server, anonymousView(mount.server, true)), oauth: info.oauth };
}
