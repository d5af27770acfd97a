import { CLIENT_INFO_META_KEY, ProtocolError, ProtocolErrorCode, type CallToolResult, type ServerContext, type Server } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import { credentialEnvironmentVariable } from '../context/credential-env';
import { headersOf } from '../context/header-source';
import { RequestContext, type ClientInfo, type HeaderSource, type ProtocolEra, type TransportKind } from '../context/request-context';
import type { CompiledTool, ToolCatalog } from '../gate/tool-catalog';
import { clip } from '../helpers/client-text';
import type { ClassType } from '../types/class-type';
import type { ArgumentLimits } from './argument-limits';
import type { DroppedKeyWarner } from './dropped-key-warner';
import type { Logger } from './logger';
import { LOGGER } from './logger-token';
import { NO_REDACTION, redactingLogger, redactorFor, type Redactor } from './redaction';
import { runToolCall } from './tool-call';

/** What the handler of one SDK `Server` instance knows about where its requests come from. */
export interface CallSite {
  transport?: TransportKind;
  era?: ProtocolEra;
  /** Headers of a long-lived connection; HTTP requests bring their own. */
  headers: HeaderSource;
  environment?: Readonly<Record<string, string | undefined>>;
  limits: Readonly<ArgumentLimits>;
}

/** Built once per server definition: everything a `tools/call` needs that does not vary per call. */
export interface CallToolDefinition {
  catalog: ToolCatalog;
  root: DependencyContainer;
  /** Toolsets with no constructor parameters: built with `new` while nothing is registered for them. */
  direct: ReadonlySet<ClassType>;
  logger: Logger;
  availableTools: string;
  warnDropped?: DroppedKeyWarner;
}

type CallRequest = { params: { name: string; arguments?: Record<string, unknown> } };

/** The `tools/call` handler of one SDK `Server` instance. */
export function callToolHandler(definition: CallToolDefinition, site: CallSite, server: Server) {
  return async (request: CallRequest, ctx: ServerContext): Promise<CallToolResult> => {
    const tool = definition.catalog.tools.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool '${clip(request.params.name)}'. ${definition.availableTools}`);
    }
    const headers = ctx.http?.req ? headersOf(ctx.http.req.headers) : site.headers;
    const transport = site.transport ?? (ctx.http?.req ? 'http' : 'memory');
    const redact = redactorOf(tool, transport, headers, site.environment);
    const logger = redactingLogger(definition.logger, redact);
    const cls = tool.toolset.cls as new () => Record<string, (input: unknown) => unknown>;
    // Checked per call, so a class the app registers after buildServer still comes from the container.
    const instantiate = definition.direct.has(cls) && !definition.root.isRegistered(cls as never, true)
      ? () => new cls()
      : () => {
          const scope = definition.root.createChildContainer();
          const context = contextFor(tool, ctx, server, {
            transport,
            era: site.era ?? (ctx.mcpReq.envelope ? 'modern' : 'legacy'),
            headers,
            environment: site.environment,
          });
          scope.register(RequestContext, { useValue: context });
          if (logger !== definition.logger) scope.register(LOGGER, { useValue: logger });
          return scope.resolve(cls);
        };
    const result = await runToolCall(tool, request.params.arguments, { instantiate, logger, limits: site.limits, warnDropped: definition.warnDropped });
    return server.projectCallToolResult(result, tool.descriptor.outputSchema) as CallToolResult;
  };
}

/**
 * The request's own credential values, so nothing it logs can show them. Built on the first line
 * logged: most calls log nothing.
 */
function redactorOf(tool: CompiledTool, transport: TransportKind, headers: HeaderSource, environment: CallSite['environment']): Redactor {
  if (tool.toolset.credentialHeaders.length === 0) return NO_REDACTION;
  let redact: Redactor | undefined;
  return (text) => (redact ??= secretsRedactor(tool, transport, headers, environment))(text);
}

function secretsRedactor(tool: CompiledTool, transport: TransportKind, headers: HeaderSource, environment: CallSite['environment']): Redactor {
  const declared = tool.toolset.credentialHeaders;
  const secrets: [string, string][] = [];
  for (const header of declared) {
    const value = transport === 'stdio' ? environment?.[credentialEnvironmentVariable(header)] : headers.get(header);
    if (value) secrets.push([header, value]);
  }
  return redactorFor(secrets);
}

function contextFor(
  tool: CompiledTool,
  ctx: ServerContext,
  server: Server,
  where: { transport: TransportKind; era: ProtocolEra; headers: HeaderSource; environment?: CallSite['environment'] },
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
