import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ListToolsResult,
  type McpRequestContext,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio as serveConnection } from '@modelcontextprotocol/server/stdio';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import { fixedHeaders, headersOf, NO_HEADERS } from '../context/header-source';
import { RequestContext, type ClientInfo, type HeaderSource, type TransportKind } from '../context/request-context';
import { runContractGate } from '../gate/contract-gate';
import type { CompiledTool, ToolCatalog } from '../gate/tool-catalog';
import type { ClassType } from '../types/class-type';
import { stderrLogger, type Logger } from './logger';
import { LOGGER } from './logger-token';
import { runToolCall } from './tool-call';

export interface BuildServerOptions {
  name: string;
  version: string;
  /** Toolset classes (decorated with `@Toolset`) whose tools this server serves. */
  toolsets: readonly ClassType[];
  /** Where app-level services are registered; each call resolves in a child of it. */
  container?: DependencyContainer;
  /** Sent to clients as the server's `instructions`. */
  instructions?: string;
  logger?: Logger;
}

/** How a long-lived connection (stdio, in-memory) reaches the server, for its RequestContext. */
export interface ConnectionOptions {
  transport?: TransportKind;
  /** Headers every call on this connection carries (in-memory tests, proxies). */
  headers?: Readonly<Record<string, string>>;
  /** Where stdio reads credentials: `x-demo-token` from `X_DEMO_TOKEN`. */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** A running connection; `close()` ends it. */
export interface ConnectionHandle {
  close(): Promise<void>;
}

/** A gated, compiled server definition: create SDK `Server`s from it as often as needed. */
export interface ToolsetServer {
  readonly name: string;
  readonly version: string;
  readonly catalog: ToolCatalog;
  /** The credential headers its toolsets declare, lower-case, without duplicates. */
  readonly credentialHeaders: readonly string[];
  readonly logger: Logger;
  /**
   * A new low-level SDK `Server` with the precomputed tools: the factory `createMcpHandler` calls
   * once per HTTP request. Headers come from each HTTP request.
   */
  createServer(context?: McpRequestContext): Server;
  /** A factory like `createServer` for a long-lived connection with its own headers or environment. */
  serverFactory(connection: ConnectionOptions): (context?: McpRequestContext) => Server;
  /**
   * Serves this server on `transport` (in-memory, a socket) through the SDK's serving entry, which
   * negotiates the era: 2026-07-28 clients and 2025-era clients alike.
   */
  connect(transport: Transport, connection?: ConnectionOptions): Promise<ConnectionHandle>;
}

/**
 * Runs the startup gate over `toolsets` and returns a factory of MCP servers that advertise the
 * reflected schemas and validate every result. Throws `ContractError` listing every violation.
 */
export function buildServer(options: BuildServerOptions): ToolsetServer {
  const catalog = runContractGate(options.name, options.toolsets);
  const logger = options.logger ?? stderrLogger;
  const root = (options.container ?? globalContainer).createChildContainer();
  if (!root.isRegistered(LOGGER, true)) root.register(LOGGER, { useValue: logger });

  const direct = directlyConstructible(catalog, root);
  const names = [...catalog.tools.keys()];
  const availableTools = `Available tools: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more (see tools/list)` : ''}.`;
  const tools = [...catalog.tools.values()];
  const listResult: ListToolsResult = { tools: tools.map((tool) => tool.descriptor) };
  const info = { name: options.name, version: options.version };
  const serverOptions = {
    capabilities: { tools: {} },
    ...(options.instructions !== undefined && { instructions: options.instructions }),
  };

  const serverFactory =
    (connection: ConnectionOptions) =>
    (factoryContext?: McpRequestContext): Server => {
      const server = new Server(info, serverOptions);
      const connectionHeaders = connection.headers ? fixedHeaders(connection.headers) : NO_HEADERS;
      server.setRequestHandler('tools/list', () => listResult);
      server.setRequestHandler('tools/call', async (request, ctx) => {
        const tool = catalog.tools.get(request.params.name);
        if (!tool) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool '${request.params.name}'. ${availableTools}`);
        }
        const cls = tool.toolset.cls as new () => Record<string, (input: unknown) => unknown>;
        const instantiate = direct.has(cls)
          ? () => new cls()
          : () => {
              const scope = root.createChildContainer();
              const requestContext = contextFor(tool, ctx, server, {
                transport: connection.transport ?? (ctx.http?.req ? 'http' : 'memory'),
                era: factoryContext?.era ?? (ctx.mcpReq.envelope ? 'modern' : 'legacy'),
                headers: ctx.http?.req ? headersOf(ctx.http.req.headers) : connectionHeaders,
                environment: connection.environment,
              });
              scope.register(RequestContext, { useValue: requestContext });
              return scope.resolve(cls);
            };
        const result = await runToolCall(tool, request.params.arguments, instantiate, logger);
        return server.projectCallToolResult(result, tool.descriptor.outputSchema);
      });
      return server;
    };

  return {
    name: options.name,
    version: options.version,
    catalog,
    credentialHeaders: [...new Set(catalog.toolsets.flatMap((toolset) => toolset.credentialHeaders))],
    logger,
    createServer: serverFactory({}),
    serverFactory,
    async connect(transport, connection = {}) {
      const handle = serveConnection(serverFactory({ transport: 'memory', ...connection }), {
        transport,
        onerror: (error) => logger.warn('connection error', { error: error.message }),
      });
      return { close: () => handle.close() };
    },
  };
}

/**
 * Toolsets whose constructor takes nothing and that nobody registered in the container: `new` gives
 * exactly what the container would, without a child container and a context per call.
 */
function directlyConstructible(catalog: ToolCatalog, root: DependencyContainer): Set<ClassType> {
  const direct = new Set<ClassType>();
  for (const { cls } of catalog.toolsets) {
    const parameters: unknown[] = Reflect.getMetadata('design:paramtypes', cls) ?? [];
    if (parameters.length === 0 && cls.length === 0 && !root.isRegistered(cls as never, true)) direct.add(cls);
  }
  return direct;
}

function contextFor(
  tool: CompiledTool,
  ctx: ServerContext,
  server: Server,
  where: { transport: TransportKind; era: 'modern' | 'legacy'; headers: HeaderSource; environment?: ConnectionOptions['environment'] },
): RequestContext {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  return new RequestContext({
    ...where,
    toolset: tool.toolset.name,
    tool: tool.name,
    credentialHeaders: tool.toolset.credentialHeaders,
    signal: ctx.mcpReq.signal,
    client: () => (ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as never] as ClientInfo | undefined) ?? server.getClientVersion(),
    sendProgress:
      progressToken === undefined
        ? undefined
        : (progress, total, message) =>
            ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) },
            }),
  });
}
