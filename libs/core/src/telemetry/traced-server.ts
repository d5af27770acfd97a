import { PROTOCOL_VERSION_META_KEY, type Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { TaskAnsweringServer } from '../wire/task-answer';
import type { RequestSite, ServerTelemetry } from './server-telemetry';

type ServerInfo = ConstructorParameters<typeof Server>[0];
type ServerOptions = ConstructorParameters<typeof Server>[1];
type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's low-level `Server`, with every request handler (its own `initialize` and `ping`
 * included) run inside a span through the SDK's `_wrapHandler` hook, outside the SDK's own
 * checks, so a request they refuse is traced too.
 */
export class TracedServer extends TaskAnsweringServer {
  // Set after `super()`: the SDK wraps its own handlers while constructing, and they read it per request.
  private telemetry!: ServerTelemetry;
  private site!: RequestSite;

  constructor(info: ServerInfo, options: ServerOptions, telemetry: ServerTelemetry, transport: RequestSite['transport']) {
    super(info, options);
    this.telemetry = telemetry;
    this.site = {
      transport,
      // A 2025-era connection negotiated it; a 2026-07-28 request names it in its envelope (and over HTTP, a header).
      protocolVersion: (ctx) =>
        this.getNegotiatedProtocolVersion() ?? (ctx.mcpReq.envelope?.[PROTOCOL_VERSION_META_KEY as never] as string | undefined) ?? ctx.http?.req?.headers.get('mcp-protocol-version') ?? undefined,
    };
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    return (request, ctx) => this.telemetry.traced(method, inner, request, ctx, this.site);
  }
}
