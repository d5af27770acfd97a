import { ProtocolError, ProtocolErrorCode, Server, type ListToolsResult, type Transport } from '@modelcontextprotocol/server';
import { container as globalContainer, type DependencyContainer } from 'tsyringe';
import type { ClassType } from '../types/class-type';
import { runContractGate } from '../gate/contract-gate';
import type { ToolCatalog } from '../gate/tool-catalog';
import { stderrLogger, type Logger } from './logger';
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

/** A gated, compiled server definition: create SDK `Server`s from it as often as needed. */
export interface ToolsetServer {
  readonly name: string;
  readonly version: string;
  readonly catalog: ToolCatalog;
  /** A new low-level SDK `Server` with the precomputed tools; cheap enough for one per HTTP request. */
  createServer(): Server;
  /** Creates a server and connects it to `transport` (in-memory, stdio, ...). */
  connect(transport: Transport): Promise<Server>;
}

/**
 * Runs the startup gate over `toolsets` and returns a factory of MCP servers that advertise the
 * reflected schemas and validate every result. Throws `ContractError` listing every violation.
 */
export function buildServer(options: BuildServerOptions): ToolsetServer {
  const catalog = runContractGate(options.name, options.toolsets);
  const logger = options.logger ?? stderrLogger;
  const root = (options.container ?? globalContainer).createChildContainer();
  const tools = [...catalog.tools.values()];
  const listResult: ListToolsResult = { tools: tools.map((tool) => tool.descriptor) };
  const advertised = new Map(tools.map((tool) => [tool.name, tool.descriptor.outputSchema]));
  const info = { name: options.name, version: options.version };
  const serverOptions = {
    capabilities: { tools: {} },
    ...(options.instructions !== undefined && { instructions: options.instructions }),
  };

  const createServer = (): Server => {
    const server = new Server(info, serverOptions);
    server.setRequestHandler('tools/list', () => listResult);
    server.setRequestHandler('tools/call', async (request) => {
      const tool = catalog.tools.get(request.params.name);
      if (!tool) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool '${request.params.name}'. Available tools: ${[...catalog.tools.keys()].join(', ')}.`,
        );
      }
      const result = await runToolCall(tool, request.params.arguments, root.createChildContainer(), logger);
      return server.projectCallToolResult(result, advertised.get(tool.name));
    });
    return server;
  };

  return {
    name: options.name,
    version: options.version,
    catalog,
    createServer,
    async connect(transport) {
      const server = createServer();
      await server.connect(transport);
      return server;
    },
  };
}
