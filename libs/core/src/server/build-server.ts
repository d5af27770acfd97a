import { SUPPORTED_PROTOCOL_VERSIONS, type McpRequestContext, type Server, type ServerContext, type Transport } from '@modelcontextprotocol/server';

import { TaskAnsweringServer } from '../wire/task-answer';
import type { BuildServerOptions, ConnectionOptions } from './build-server-options';
import { checkServingOptions, listTtlOf, sealOf, warnOverSchemaBudget, warnSecretFormFields } from './build-server-checks';
import { advertisedEras, capabilitiesOf, described } from './advertised-capabilities';

export type { BuildServerOptions, CacheScope, ConnectionOptions } from './build-server-options';
import { serveStdio as serveConnection } from '@modelcontextprotocol/server/stdio';
import { container as globalContainer } from 'tsyringe';
import { fixedHeaders, NO_HEADERS } from '../context/header-source';
import { routingOf } from '../context/routed-request';
import { runContractGate } from '../gate/contract-gate';
import { servesResources, type ToolCatalog } from '../compiled/tool-catalog';
import type { ClassType } from '../types/class-type';
import { ServerTelemetry } from '../telemetry/server-telemetry';
import { TracedServer } from '../telemetry/traced-server';
import { TaskListens } from './tasks/task-listens';
import { clip } from '../helpers/client-text';
import { CatalogSlices } from '../selection/catalog-slices';
import { DISCOVERY_TOOL_NAMES } from '../selection/discovery-tools';
import { KNOWN_PROTOCOL_VERSIONS, MODERN_REVISIONS } from '../wire/protocol-revisions';
import type { AuthOptions } from './request/auth-options';
import type { Selection } from '../selection/selection';
import { stderrLogger, type Logger } from './logging/logger';
import { LOGGER } from './logging/logger-token';
import { droppedKeyWarner, warnsDroppedKeys } from './tools/dropped-key-warner';
import { DEFAULT_ARGUMENT_LIMITS } from './checks/argument-limits';
import { callToolHandler, toolsCallEntry, type CallToolSetup } from './tools/call-tool-handler';
import { DirectCalls } from './tools/direct-calls';
import type { ServingSite } from './request/member-scope';
import { seenSlice } from './request/call-origin';
import { completionHandler } from './members/completion-handler';
import { promptHandlers } from './members/prompt-handlers';
import { resourceHandlers } from './members/resource-handlers';
import { RESOURCE_UPDATES, RESOURCE_WATCHERS, ResourceSubscriptions, type ResourceWatcher } from './members/resource-subscriptions';
import { TaskEngine } from './tasks/task-engine';
import { taskCallHandler, taskRunner } from './tasks/task-call';
import { registerTaskHandlers } from './tasks/task-handlers';
import { groupsHandler, type CountedGroup } from './members/group-handlers';
import type { ServerCardOptions } from './server-card-options';
import type { CatalogSlice } from '../selection/catalog-slice';
import type { CodeModeProvider } from '../selection/code-mode-provider';

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
  readonly views: CatalogSlices;
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
  groupsOf(view: CatalogSlice): readonly CountedGroup[];
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
  const subscriptions = new ResourceSubscriptions(catalog, logger, () => (root.isRegistered(RESOURCE_WATCHERS, true) ? root.resolveAll<ResourceWatcher>(RESOURCE_WATCHERS) : []));
  if (!root.isRegistered(RESOURCE_UPDATES, true)) root.register(RESOURCE_UPDATES, { useValue: subscriptions });

  const views = new CatalogSlices(catalog, options.mode, options.codeMode);
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
  const complete = completionHandler(definition, logger);
  const groups = groupsHandler(catalog);
  const prompts = catalog.prompts.size > 0 ? promptHandlers(definition) : undefined;
  const resources = hasResources ? resourceHandlers(definition) : undefined;

  // What a server registers for tools/call: the same for a server made per request and for the fast path's.
  const handleCall = taskCallHandler(callToolHandler(definition), tasks);
  const toolsCall = (site: ServingSite, server: Server) => toolsCallEntry(handleCall, site, server);

  const serverFactory =
    (connection: ConnectionOptions, supportedProtocolVersions?: readonly string[]) =>
    (factoryContext?: McpRequestContext): Server => {
      const advertisedOptions = advertised(connection)[factoryContext?.era ?? 'either'];
      const sdkOptions = supportedProtocolVersions ? { ...advertisedOptions, supportedProtocolVersions: [...supportedProtocolVersions] } : advertisedOptions;
      const server = telemetry ? new TracedServer(info, sdkOptions, telemetry, connection.transport) : new TaskAnsweringServer(info, sdkOptions);
      const site: ServingSite = { ...connectionSite(connection), era: factoryContext?.era, served: { views, view: viewOf(views, connection.selection, factoryContext) } };
      // Each request sees what its origin allows: the router's choice, or with token verification what its own token's scopes allow.
      const current = (ctx: ServerContext) => seenSlice(site, ctx);
      server.setRequestHandler('tools/list', (_request, ctx) => current(ctx).listResult);
      server.setRequestHandler('groups/list', { params: groups.params }, (params, ctx) => groups.page(current(ctx), params.cursor));
      server.setRequestHandler('tools/call', toolsCall(site, server));
      if (tasks) registerTaskHandlers(server, site, tasks);
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
      if (serverOptions.capabilities.completions) server.setRequestHandler('completion/complete', complete(site, server));
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
  return new TaskEngine(options.taskStore, catalog.tools, logger, options.taskQueue, options.taskLimits);
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
function viewOf(views: CatalogSlices, selection: Selection | undefined, context: McpRequestContext | undefined) {
  if (selection) return views.view(selection);
  const request = context?.requestInfo;
  if (!request) return views.whole;
  return routingOf(request)?.selected ?? views.forHttp(request.url, (name) => request.headers.get(name));
}

