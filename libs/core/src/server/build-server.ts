import { SUPPORTED_PROTOCOL_VERSIONS, type McpRequestContext, type Server, type ServerContext, type Transport } from '@modelcontextprotocol/server';

/** The cache scopes of 2026-07-28 results (SEP-2549). */
export type CacheScope = 'public' | 'private';
/** The operations whose 2026-07-28 results carry `ttlMs` and `cacheScope`. */
type CacheableResultMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover';
import { TaskAnsweringServer } from '../wire/task-answer';
import { serveStdio as serveConnection } from '@modelcontextprotocol/server/stdio';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import { fixedHeaders, NO_HEADERS } from '../context/header-source';
import type { TransportKind } from '../context/request-context';
import { routingOf } from '../context/routed-request';
import { runContractGate } from '../gate/contract-gate';
import { servesResources, type ToolCatalog } from '../compiled/tool-catalog';
import { VIEW_MIME_TYPE, VIEWS_EXTENSION } from '../metadata/tool-view';
import type { ClassType } from '../types/class-type';
import type { CuratedToolset } from '../metadata/toolset-curation';
import type { InterceptorClass } from '../metadata/tool-interceptor';
import { ServerTelemetry, type TelemetryOptions } from '../telemetry/server-telemetry';
import { TracedServer } from '../telemetry/traced-server';
import { ServerOptionError } from '../errors/server-option.error';
import { secretFormFields } from '../gate/secret-form-fields';
import { TaskListens } from './tasks/task-listens';
import { clip } from '../helpers/client-text';
import { CatalogViews } from '../selection/catalog-views';
import { DISCOVERY_TOOL_NAMES } from '../selection/discovery-tools';
import { KNOWN_PROTOCOL_VERSIONS, MODERN_REVISIONS } from '../wire/protocol-revisions';
import type { AuthOptions } from './request/auth-options';
import type { CatalogMode, Selection } from '../selection/selection';
import { stderrLogger, type Logger } from './logging/logger';
import { LOGGER } from './logging/logger-token';
import { droppedKeyWarner, warnsDroppedKeys } from './tools/dropped-key-warner';
import { DEFAULT_ARGUMENT_LIMITS, type ArgumentLimits } from './checks/argument-limits';
import { callToolHandler, type CallToolSetup } from './tools/call-tool-handler';
import { DirectCalls } from './tools/direct-calls';
import type { ServingSite } from './request/member-scope';
import { REQUEST_STATE_KEY_VARIABLE, requestStateSeal, type RequestStateSeal } from './request/request-state';
import { seenView } from './request/call-origin';
import { completionHandler } from './members/completion-handler';
import { promptHandlers } from './members/prompt-handlers';
import { resourceHandlers } from './members/resource-handlers';
import { RESOURCE_UPDATES, ResourceSubscriptions } from './members/resource-subscriptions';
import { TaskEngine } from './tasks/task-engine';
import { MemoryTaskStore } from './tasks/memory-task-store';
import type { TaskStore } from './tasks/task-store';
import { taskCallHandler, taskRunner } from './tasks/task-call';
import type { TaskQueue } from './tasks/task-queue';
import { registerTaskHandlers } from './tasks/task-handlers';
import { TASKS_EXTENSION } from './tasks/task-wire';
import { groupsHandler, type CountedGroup } from './members/group-handlers';
import { cardOptionProblem, type ServerCardOptions } from './server-card-options';
import type { CatalogView } from '../selection/catalog-view';
import { GROUPING_EXTENSION } from '../wire/grouping';
import type { TaskLimits } from './tasks/task-limits';
import type { CodeModeProvider } from '../selection/code-mode-provider';

export interface BuildServerOptions {
  name: string;
  version: string;
  /**
   * Toolset classes (decorated with `@Toolset`) whose tools this server serves, each as written or
   * adapted to this app with `curate(Toolset, { prefix, hide, tools })`.
   */
  toolsets: readonly (ClassType | CuratedToolset)[];
  /** Where app-level services are registered; each call resolves in a child of it. */
  container?: DependencyContainer;
  /** Sent to clients as the server's `instructions`. */
  instructions?: string;
  logger?: Logger;
  /**
   * Log once per tool and key when a result carries a key its class does not declare (it is
   * dropped either way). Default: on unless `NODE_ENV=production`, and on with `TOOLSETS_DEBUG`.
   */
  warnDroppedKeys?: boolean;
  /**
   * How `tools/list` presents the tools when a request does not choose (`?mode=`): `tools` lists
   * every selected tool (the default); `discovery` lists three tools that search, describe and
   * call them, for catalogs too large to list.
   */
  mode?: CatalogMode;
  /**
   * Serves code mode (`?mode=code`, `X-MCP-Mode: code`, stdio's `--code`, or `mode: 'code'` here):
   * `codeMode()` from `@toolsets/code-mode`, which lists three tools that search the catalog,
   * describe it as TypeScript, and run a model's program against it in a sandbox. Without it, a
   * request for code mode is refused saying how to turn it on.
   */
  codeMode?: CodeModeProvider;
  /**
   * The most estimated tokens (bytes ÷ 4) this server's whole `tools/list` may take: the
   * `contract` target fails past it, naming the groups to split or select, or discovery mode.
   */
  listBudgetTokens?: number;
  /**
   * Token verification for this server's HTTP mount, overriding the app's (`AUTH_ISSUER`, …);
   * `false` keeps it public even when the app checks tokens. Over stdio nothing is checked.
   */
  auth?: AuthOptions | false;
  /**
   * Interceptor classes run around every tool call of this server, before each toolset's and
   * tool's own (`@UseInterceptors`): `[Timing, RateLimit({ capacity: 60, refillPerSecond: 1 })]`.
   */
  interceptors?: readonly InterceptorClass[];
  /**
   * OpenTelemetry spans and metrics for every request, through `@opentelemetry/api` (nothing is
   * recorded until the app registers an SDK). `false` turns them off; `{ recordArguments: true }`
   * also records tool arguments (and `recordResults` results), which are never recorded otherwise.
   */
  telemetry?: boolean | TelemetryOptions;
  /**
   * Where the tasks of `@Tool({ task })` tools live: in the process by default; a shared store
   * (`RedisTaskStore`, which `REDIS_URL` sets up in an app) lets every replica answer for them.
   */
  taskStore?: TaskStore;
  /**
   * Which process runs a task: the one that created it by default; a queue (`BullTaskQueue`, which
   * `REDIS_URL` sets up in an app) hands it to a worker on any replica.
   */
  taskQueue?: TaskQueue;
  /**
   * Bounds on the tasks: unfinished tasks in all (`maxActive`, default 1,000) and per caller
   * (`maxActivePerCaller`, default 32), and how long one may wait for input (`inputTimeoutMs`,
   * default ten minutes). An app reads TASKS_MAX, TASKS_MAX_PER_CALLER and TASKS_INPUT_TIMEOUT_MS.
   */
  taskLimits?: Partial<TaskLimits>;
  /**
   * The key (32 bytes or more) that seals the `requestState` of 2026-07-28 multi round-trips (a
   * tool's questions to a stateless client), so a client can neither alter the answers it carries
   * nor replay them on another call. Default: `MCP_REQUEST_STATE_KEY`, else a random key of this
   * process (then every round of a call must reach the same process: replicas share a key).
   */
  requestStateKey?: string;
  /**
   * What this server's MCP Server Card says of it (SEP-2127, served at `<endpoint>/server-card`):
   * its registry name, title, description, links. `false` serves no card. See `ServerCardOptions`.
   */
  card?: ServerCardOptions | false;
  /**
   * How long, in milliseconds, a 2026-07-28 client may cache this server's lists (`tools/list`,
   * `prompts/list`, `resources/list`, `resources/templates/list`) and `server/discover`: their
   * `ttlMs`. Default `LIST_TTL_MS`, else 0 (the client revalidates, with the list's ETag over
   * HTTP). The catalog changes only when the server is redeployed, so a deployment that rolls
   * slowly can give minutes. Their `cacheScope` is `public` on an HTTP mount that checks no token
   * (every caller with the same selection gets the same bytes) and `private` elsewhere.
   */
  listTtlMs?: number;
}

/** How a long-lived connection (stdio, in-memory) reaches the server, for its RequestContext. */
export interface ConnectionOptions {
  transport?: TransportKind;
  /** Headers every call on this connection carries (in-memory tests, proxies). */
  headers?: Readonly<Record<string, string>>;
  /** Where stdio reads credentials: `x-demo-token` from `X_DEMO_TOKEN`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Bounds on each call's arguments (default `DEFAULT_ARGUMENT_LIMITS`). */
  argumentLimits?: Readonly<ArgumentLimits>;
  /**
   * The connection outlives a request (stdio, in memory, a 2025-era HTTP session), so clients may
   * subscribe to resources and get `notifications/resources/updated`.
   */
  subscriptions?: boolean;
  /** The tools this connection sees and how they are listed (stdio's `--toolsets=`, `--readonly`, `--discovery`). */
  selection?: Selection;
  /**
   * Extensions the connection's mount adds to those the server speaks, advertised in `initialize`
   * and `server/discover` (an HTTP mount that checks tokens adds OAuth client credentials).
   */
  extensions?: Readonly<Record<string, object>>;
  /** Whether the lists this connection gets may sit in shared caches (`public`: an HTTP mount that checks no token). Default `private`. */
  cacheScope?: CacheScope;
}

/** A running connection; `close()` ends it. */
export interface ConnectionHandle {
  close(): Promise<void>;
}

/** @deprecated Renamed `ServerDefinition`: it is a compiled definition that makes servers, not a server. */
export type ToolsetServer = ServerDefinition;

/** A gated, compiled server definition: create SDK `Server`s from it as often as needed. */
export interface ServerDefinition {
  readonly name: string;
  readonly version: string;
  readonly catalog: ToolCatalog;
  /** Its catalog as each selection sees it (`?toolsets=`, read-only, discovery mode). */
  readonly views: CatalogViews;
  readonly listBudgetTokens?: number;
  /** Its own token verification (`buildServer({ auth })`): settings, or `false` for a public mount. */
  readonly auth?: AuthOptions | false;
  /** The credential headers its toolsets declare, lower-case, without duplicates. */
  readonly credentialHeaders: readonly string[];
  readonly logger: Logger;
  /** The spans and metrics of its requests, for those the HTTP transport answers itself; absent when off. */
  readonly telemetry?: ServerTelemetry;
  /**
   * A new low-level SDK `Server` with the precomputed tools: the factory `createMcpHandler` calls
   * once per HTTP request. Headers come from each HTTP request.
   */
  createServer(context?: McpRequestContext): Server;
  /** A factory like `createServer` for a long-lived connection with its own headers or environment. */
  serverFactory(connection: ConnectionOptions): (context?: McpRequestContext) => Server;
  /**
   * The `tools/call` of HTTP requests of both eras without a server per request (the HTTP fast
   * path), answering as a server from `serverFactory(connection)` would: one per mount.
   */
  directCalls(connection: ConnectionOptions): DirectCalls;
  /**
   * Serves this server on `transport` (in-memory, a socket) through the SDK's serving entry, which
   * negotiates the era: 2026-07-28 clients and 2025-era clients alike.
   */
  connect(transport: Transport, connection?: ConnectionOptions): Promise<ConnectionHandle>;
  /** Tells every connection subscribed to `uri` that the resource changed (also injectable as `RESOURCE_UPDATES`). */
  resourceUpdated(uri: string): Promise<void>;
  /** The tasks of its `@Tool({ task })` tools: absent when it has none. */
  readonly tasks?: TaskEngine;
  /** Its code mode (`buildServer({ codeMode })`): an app closes it at shutdown, ending programs still running. */
  readonly codeMode?: CodeModeProvider;
  /** The `subscriptions/listen` streams that follow its tasks (`notifications/tasks`): absent when it has none. */
  readonly taskListens?: TaskListens;
  /** The extensions it speaks (grouping; tasks and MCP Apps when a tool uses them), as advertised. */
  readonly extensions: readonly string[];
  /** Its `instructions`, as sent to clients. */
  readonly instructions?: string;
  /** What its Server Card says of it; `false` when it serves none. */
  readonly card: ServerCardOptions | false;
  /** How long a 2026-07-28 client may cache its lists (`listTtlMs`, `LIST_TTL_MS`; 0 by default). */
  readonly listTtlMs: number;
  /** `groups/list` as `view` sees it, every page, each entry with how many of its tools the view has. */
  groupsOf(view: CatalogView): readonly CountedGroup[];
}

/**
 * Runs the startup gate over `toolsets` and returns a factory of MCP servers that advertise the
 * reflected schemas and validate every result. Throws `ContractError` listing every violation.
 */
export function buildServer(options: BuildServerOptions): ServerDefinition {
  checkServingOptions(options);
  const listTtlMs = listTtlOf(options);
  const catalog = runContractGate(options.name, options.toolsets, { interceptors: options.interceptors });
  const logger = options.logger ?? stderrLogger;
  warnOverSchemaBudget(catalog, logger);
  warnSecretFormFields(catalog, logger);
  const root = (options.container ?? globalContainer).createChildContainer();
  if (!root.isRegistered(LOGGER, true)) root.register(LOGGER, { useValue: logger });
  const subscriptions = new ResourceSubscriptions(catalog, logger);
  if (!root.isRegistered(RESOURCE_UPDATES, true)) root.register(RESOURCE_UPDATES, { useValue: subscriptions });

  const views = new CatalogViews(catalog, options.mode, options.codeMode);
  const tasks = taskEngineOf(catalog, options, logger);
  const hasTasks = tasks !== undefined;
  const telemetry = newTelemetry(options.telemetry, catalog, options.codeMode);
  const info = { name: options.name, version: options.version };
  const hasResources = servesResources(catalog);
  const requestState = sealOf(options);
  const serverOptions = {
    capabilities: capabilitiesOf(catalog, hasTasks),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
    // A 2026-07-28 retry's requestState is opened (seal and expiry checked) before any handler runs; a bad one is -32602.
    requestState: { verify: requestState.verify },
  };

  const definition: CallToolSetup = {
    name: options.name,
    catalog,
    root,
    direct: directlyConstructible(catalog),
    logger,
    views,
    requestState,
    telemetry,
    ...((options.warnDroppedKeys ?? warnsDroppedKeys()) && { warnDropped: droppedKeyWarner(logger) }),
  };

  // Connections that outlive a request may subscribe to resources.
  const subscribingOptions = hasResources ? { ...serverOptions, capabilities: { ...serverOptions.capabilities, resources: { subscribe: true } } } : serverOptions;
  // Made once: a stateless server instance is made per request.
  const advertised = advertisedEras(serverOptions, subscribingOptions, listTtlMs);
  const complete = completionHandler(catalog, logger);
  const groups = groupsHandler(catalog);
  const prompts = catalog.prompts.size > 0 ? promptHandlers(definition) : undefined;
  const resources = hasResources ? resourceHandlers(definition) : undefined;

  // What a server registers for tools/call: the same for a server made per request and for the fast path's.
  const toolsCall = (site: ServingSite, server: Server) => {
    const call = callToolHandler(definition, site, server);
    return tasks ? taskCallHandler(call, definition, site, server, tasks) : call;
  };

  const serverFactory =
    (connection: ConnectionOptions, supportedProtocolVersions?: readonly string[]) =>
    (factoryContext?: McpRequestContext): Server => {
      const advertisedOptions = advertised(connection)[factoryContext?.era ?? 'either'];
      const sdkOptions = supportedProtocolVersions ? { ...advertisedOptions, supportedProtocolVersions: [...supportedProtocolVersions] } : advertisedOptions;
      const server = telemetry ? new TracedServer(info, sdkOptions, telemetry, connection.transport) : new TaskAnsweringServer(info, sdkOptions);
      const site: ServingSite = { ...connectionSite(connection), era: factoryContext?.era, served: { views, view: viewOf(views, connection.selection, factoryContext) } };
      // Each request sees what its origin allows: the router's choice, or with token verification what its own token's scopes allow.
      const current = (ctx: ServerContext) => seenView(site, ctx, server);
      server.setRequestHandler('tools/list', (_request, ctx) => current(ctx).listResult);
      server.setRequestHandler('groups/list', { params: groups.params }, (params, ctx) => groups.page(current(ctx), params.cursor));
      server.setRequestHandler('tools/call', toolsCall(site, server));
      if (tasks) registerTaskHandlers(server, site, tasks, catalog);
      if (prompts) {
        server.setRequestHandler('prompts/list', (_request, ctx) => current(ctx).lists['prompts/list']!);
        server.setRequestHandler('prompts/get', prompts.get(site, server));
      }
      if (resources) {
        server.setRequestHandler('resources/list', (_request, ctx) => current(ctx).lists['resources/list']!);
        server.setRequestHandler('resources/templates/list', (_request, ctx) => current(ctx).lists['resources/templates/list']!);
        server.setRequestHandler('resources/read', resources.read(site, server));
        if (connection.subscriptions) {
          const subscription = subscriptions.handlers(server);
          server.setRequestHandler('resources/subscribe', subscription.subscribe);
          server.setRequestHandler('resources/unsubscribe', subscription.unsubscribe);
        }
      }
      if (serverOptions.capabilities.completions) server.setRequestHandler('completion/complete', complete);
      return server;
    };

  useTaskRunner(tasks, definition, serverFactory);

  const built: ServerDefinition = {
    name: options.name,
    version: options.version,
    catalog,
    views,
    ...(options.listBudgetTokens !== undefined && { listBudgetTokens: options.listBudgetTokens }),
    ...(options.auth !== undefined && { auth: options.auth }),
    credentialHeaders: [...new Set(catalog.toolsets.flatMap((toolset) => toolset.credentialHeaders))],
    logger,
    ...(telemetry && { telemetry }),
    createServer: serverFactory({}),
    serverFactory,
    directCalls: (connection) =>
      new DirectCalls(
        // A 2026-07-28 one serves those revisions besides the SDK's defaults, so a per-request transport binds it to one for good.
        (era) => (era === 'modern' ? serverFactory(connection, [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_REVISIONS]) : serverFactory(connection))({ era }) as TaskAnsweringServer,
        toolsCall,
        connectionSite(connection),
        views,
        info,
      ),
    async connect(transport, connection = {}) {
      const handle = serveConnection(serverFactory({ transport: 'memory', subscriptions: true, ...connection }), {
        transport,
        onerror: (error) => logger.warn('connection error', { error: clip(error.message) }),
      });
      return { close: () => handle.close() };
    },
    resourceUpdated: (uri) => subscriptions.updated(uri),
    tasks,
    ...(tasks && { taskListens: new TaskListens(tasks) }),
    codeMode: options.codeMode,
    ...described(options, serverOptions.capabilities),
    listTtlMs,
    groupsOf: (view) => groups.entries(view),
  };
  return built;
}

/** What a server made for `connection` knows of where its requests come from, but for its era and view. */
function connectionSite(connection: ConnectionOptions): Omit<ServingSite, 'served' | 'era'> {
  return {
    transport: connection.transport,
    headers: connection.headers ? fixedHeaders(connection.headers) : NO_HEADERS,
    environment: connection.environment,
    limits: connection.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS,
  };
}

/** A task's call runs off any request, on a server of its own for what a call reads of one. */
function useTaskRunner(tasks: TaskEngine | undefined, definition: CallToolSetup, serverFactory: (connection: ConnectionOptions) => () => Server): void {
  let server: Server | undefined;
  tasks?.useRunner(taskRunner(definition, () => (server ??= serverFactory({})())));
}

/** The tasks of `@Tool({ task })` tools, in `store` (the process by default); undefined when no tool runs as a task. */
function taskEngineOf(catalog: ToolCatalog, options: BuildServerOptions, logger: Logger): TaskEngine | undefined {
  if (![...catalog.tools.values()].some((tool) => tool.task !== undefined)) return undefined;
  return new TaskEngine(options.taskStore ?? new MemoryTaskStore(), catalog.tools, logger, options.taskQueue, options.taskLimits);
}

/** Spans and metrics for every request, unless turned off. */
function newTelemetry(option: BuildServerOptions['telemetry'], catalog: ToolCatalog, codeMode?: CodeModeProvider): ServerTelemetry | undefined {
  if (option === false) return undefined;
  const known = { tools: new Set([...catalog.tools.keys(), ...DISCOVERY_TOOL_NAMES, ...(codeMode?.names ?? [])]), prompts: new Set(catalog.prompts.keys()), protocolVersions: KNOWN_PROTOCOL_VERSIONS };
  return new ServerTelemetry(known, option === true || option === undefined ? {} : option);
}

/**
 * Toolsets whose constructor takes nothing: while nobody registered them in the container (checked
 * per call), `new` gives exactly what the container would, without a child container per call.
 */
function directlyConstructible(catalog: ToolCatalog): Set<ClassType> {
  const direct = new Set<ClassType>();
  for (const { cls } of catalog.toolsets) {
    const parameters: unknown[] = Reflect.getMetadata('design:paramtypes', cls) ?? [];
    if (parameters.length === 0 && cls.length === 0) direct.add(cls);
  }
  return direct;
}

/**
 * The view one SDK `Server` instance serves: its connection's selection, else the one the router
 * chose for its HTTP request (query and headers; a bad one was refused there), else the default.
 */
function viewOf(views: CatalogViews, selection: Selection | undefined, context: McpRequestContext | undefined) {
  if (selection) return views.view(selection);
  const request = context?.requestInfo;
  if (!request) return views.whole;
  return routingOf(request)?.selected ?? views.forHttp(request.url, (name) => request.headers.get(name));
}

/** The seal of the server's `requestState`: its option, else `MCP_REQUEST_STATE_KEY`, else a key of this process. */
function sealOf(options: BuildServerOptions): RequestStateSeal {
  const key = options.requestStateKey ?? (process.env[REQUEST_STATE_KEY_VARIABLE] || undefined);
  const seal = requestStateSeal(key);
  if (typeof seal === 'string') {
    const option = options.requestStateKey !== undefined ? 'requestStateKey' : REQUEST_STATE_KEY_VARIABLE;
    throw new ServerOptionError(options.name, option, seal, 'give every replica the same random key of 32 bytes or more; it seals the state of multi round-trip calls, so keep it secret.');
  }
  return seal;
}

function checkServingOptions(options: BuildServerOptions): void {
  if (options.mode === 'code' && options.codeMode === undefined) {
    throw new ServerOptionError(options.name, 'mode', "is 'code' without codeMode", "pass codeMode: codeMode() from '@toolsets/code-mode' beside it, or use 'tools' or 'discovery'.");
  }
  if (options.mode !== undefined && options.mode !== 'tools' && options.mode !== 'discovery' && options.mode !== 'code') {
    throw new ServerOptionError(options.name, 'mode', `is ${JSON.stringify(options.mode)}`, "use 'tools' (every tool listed), 'discovery' (search_tools, browse_tools, describe_tools, call_tool) or 'code' (with codeMode).");
  }
  checkListTtl(options);
  const cardProblem = options.card ? cardOptionProblem(options.card) : undefined;
  if (cardProblem) throw new ServerOptionError(options.name, ...cardProblem);
  const budget = options.listBudgetTokens;
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0)) {
    throw new ServerOptionError(options.name, 'listBudgetTokens', `is ${JSON.stringify(budget)}`, 'give a positive whole number of tokens (bytes ÷ 4), such as 50000.');
  }
}

/** What the server offers, from what the catalog holds. */
function capabilitiesOf(catalog: ToolCatalog, hasTasks: boolean) {
  const hasResources = servesResources(catalog);
  return {
    tools: {},
    // Tasks: the 2026-07-28 extension, and the 2025-11-25 revision's capability (each era reads its own).
    ...(extensionsOf(catalog, hasTasks) && { extensions: extensionsOf(catalog, hasTasks) }),
    ...(hasTasks && { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }),
    logging: {},
    ...(catalog.prompts.size > 0 && { prompts: {} }),
    ...(hasResources && { resources: {} }),
    ...((catalog.prompts.size > 0 || catalog.templates.length > 0) && { completions: {} }),
  };
}

/**
 * What a connection's server advertises in each era: the server's options, with subscriptions for
 * a connection that outlives a request, and the extensions its mount adds (OAuth client
 * credentials), each set made once.
 */
function advertisedEras<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(
  serving: T,
  subscribing: T,
  listTtlMs: number,
): (connection: ConnectionOptions) => Record<'modern' | 'legacy' | 'either', T> {
  const hinted = (options: T, cacheScope: CacheScope) => ({ ...options, cacheHints: cacheHintsOf(listTtlMs, cacheScope) });
  const servingByEra = byEra(hinted(serving, 'private'));
  const subscribingByEra = byEra(hinted(subscribing, 'private'));
  const own = new WeakMap<ConnectionOptions, Record<'modern' | 'legacy' | 'either', T>>();
  return (connection) => {
    if (!connection.extensions && connection.cacheScope !== 'public') return connection.subscriptions ? subscribingByEra : servingByEra;
    let eras = own.get(connection);
    if (!eras) {
      const base = hinted(connection.subscriptions ? subscribing : serving, connection.cacheScope ?? 'private');
      own.set(connection, (eras = byEra(connection.extensions ? withExtensions(base, connection.extensions) : base)));
    }
    return eras;
  };
}

/** The 2026-07-28 cache fields of the lists and `server/discover` (the SDK fills them in from these). */
function cacheHintsOf(ttlMs: number, cacheScope: CacheScope): Partial<Record<CacheableResultMethod, { ttlMs: number; cacheScope: CacheScope }>> {
  const hint = { ttlMs, cacheScope };
  return { 'tools/list': hint, 'prompts/list': hint, 'resources/list': hint, 'resources/templates/list': hint, 'server/discover': hint };
}

function checkListTtl(options: BuildServerOptions): void {
  const ttl = listTtlOf(options);
  if (Number.isSafeInteger(ttl) && ttl >= 0) return;
  const option = options.listTtlMs !== undefined ? 'listTtlMs' : 'LIST_TTL_MS';
  throw new ServerOptionError(options.name, option, `is ${JSON.stringify(options.listTtlMs ?? process.env['LIST_TTL_MS'])}`, 'give a whole number of milliseconds, 0 or more, such as 300000 for five minutes.');
}

/** `listTtlMs`, else LIST_TTL_MS, else 0. */
function listTtlOf(options: BuildServerOptions): number {
  const text = process.env['LIST_TTL_MS']?.trim();
  return options.listTtlMs ?? (text ? Number(text) : 0);
}

/** What a definition says of itself beyond its catalog: its instructions, its Server Card's options, the extensions it speaks. */
function described({ instructions, card }: BuildServerOptions, capabilities: { extensions?: object }): Pick<ServerDefinition, 'instructions' | 'card' | 'extensions'> {
  return { ...(instructions !== undefined && { instructions }), card: card ?? {}, extensions: Object.keys(capabilities.extensions ?? {}) };
}

/** `options` advertising `extensions` besides its own. */
function withExtensions<T extends { capabilities: { extensions?: Record<string, unknown> } }>(options: T, extensions: Readonly<Record<string, object>>): T {
  return { ...options, capabilities: { ...options.capabilities, extensions: { ...options.capabilities.extensions, ...extensions } } };
}

function byEra<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(options: T): Record<'modern' | 'legacy' | 'either', T> {
  return { modern: advertisedFor('modern', options), legacy: advertisedFor('legacy', options), either: options };
}

/**
 * What a server instance advertises, when its era is known: a 2025-era session sees the 2025-11-25
 * `tasks` capability and not the 2026-07-28 tasks extension, a 2026-07-28 request the other way
 * round; a connection whose era is negotiated later (stdio, in memory) keeps both.
 */
function advertisedFor<T extends { capabilities: { extensions?: Record<string, unknown>; tasks?: unknown } }>(era: 'modern' | 'legacy', options: T): T {
  const { extensions, tasks } = options.capabilities;
  if (era === 'modern' && tasks !== undefined) {
    const { tasks: _legacyTasks, ...capabilities } = options.capabilities;
    return { ...options, capabilities };
  }
  if (era === 'legacy' && extensions?.[TASKS_EXTENSION] !== undefined) {
    const { [TASKS_EXTENSION]: _modernTasks, ...others } = extensions;
    const { extensions: _all, ...rest } = options.capabilities;
    return { ...options, capabilities: Object.keys(others).length > 0 ? { ...rest, extensions: others } : rest };
  }
  return options;
}

/** The extensions the server speaks: grouping, tasks (2026-07-28) when a tool runs as one, MCP Apps when a tool has a view. */
function extensionsOf(catalog: ToolCatalog, hasTasks: boolean): Record<string, Record<string, string[]>> | undefined {
  const extensions: Record<string, Record<string, string[]>> = {
    // Every catalog is grouped by toolset: groups/list, and each primitive's _meta names its group.
    [GROUPING_EXTENSION]: {},
    ...(hasTasks && { [TASKS_EXTENSION]: {} }),
    ...(catalog.toolViews.size > 0 && { [VIEWS_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } }),
  };
  return Object.keys(extensions).length > 0 ? extensions : undefined;
}

/** A form field that asks for a credential: its answer would pass through the client, which the revision forbids. */
function warnSecretFormFields(catalog: ToolCatalog, logger: Logger): void {
  for (const { member, form, field } of secretFormFields(catalog)) {
    logger.warn(
      `${member} asks for '${field}' of '${form}' in an elicitation form, and it looks like a credential: a form's answer passes through the client and may reach the model. ` +
        'Send the user to a page of yours with context.elicitUrl(url, message) instead (URL-mode elicitation), and keep the secret on the server.',
    );
  }
}

/**
 * Entries over their toolset's `schemaBudget` are those whose arguments alone do not fit: input
 * schemas are never cut (a model must see every argument it can send), so the budget is the user's to raise.
 */
function warnOverSchemaBudget(catalog: ToolCatalog, logger: Logger): void {
  const over = [...catalog.tools.values()].filter((tool) => tool.overSchemaBudget);
  if (over.length === 0) return;
  logger.warn(
    `${over.length} tool(s) advertised over their toolset's schemaBudget, because their arguments alone need more (input schemas are never cut): ` +
      `${over.map((tool) => `${tool.name} (${tool.overSchemaBudget!.bytes} bytes, budget ${tool.overSchemaBudget!.budget})`).join(', ')}. ` +
      'Raise @Toolset({ schemaBudget }) (schemaBudget in openapi.config.json for a generated toolset) to at least the largest, or leave the tools out.',
  );
}
