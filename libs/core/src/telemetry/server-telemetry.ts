import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { TransportKind } from '../context/request-context';
import * as A from './mcp-attributes';
import { OperationDuration } from './operation-metrics';
import { parentContext, type HeaderLookup } from './trace-parent';

/** What `buildServer({ telemetry })` records beyond the conventions' low-cardinality attributes. */
export interface TelemetryOptions {
  /** Record each tool call's arguments as `gen_ai.tool.call.arguments` (JSON). Off by default: they may be personal data. */
  recordArguments?: boolean;
  /** Record each tool call's result as `gen_ai.tool.call.result` (JSON). Off by default. */
  recordResults?: boolean;
}

type Params = { name?: unknown; uri?: unknown; arguments?: unknown; _meta?: unknown };
type Handler<Q, R> = (request: Q, ctx: ServerContext) => Promise<R>;

/** The most characters of arguments or a result an opted-in attribute carries. */
const RECORDED_CHARS = 8192;

/** The label of a name the catalog does not have: a caller's made-up names never become series of their own. */
export const OTHER_NAME = '_OTHER';

/** The names a server may label its spans and metrics with: anything else a caller sends is `_OTHER`. */
export interface KnownNames {
  tools: ReadonlySet<string>;
  prompts: ReadonlySet<string>;
  protocolVersions: ReadonlySet<string>;
}

/**
 * Traces and measures every MCP request a server handles, through `@opentelemetry/api` only: until
 * the app registers an OpenTelemetry SDK the API's no-op tracer and meter record nothing. One SERVER
 * span per request, named `{mcp.method.name} {target}` (`tools/call get_weather`), with the MCP
 * conventions' attributes, continuing the client's trace; and the `mcp.server.operation.duration`
 * histogram with the same low-cardinality attributes.
 */
export class ServerTelemetry {
  private readonly tracer: Tracer = trace.getTracer('@toolsets/core');
  private readonly duration = new OperationDuration();

  constructor(
    private readonly known: KnownNames,
    private readonly options: TelemetryOptions = {},
  ) {}

  /** Runs `handler` for one request inside its span, recording how it ended. */
  traced<Q extends { params?: unknown; id?: unknown }, R>(method: string, handler: Handler<Q, R>, request: Q, ctx: ServerContext, where: RequestSite): Promise<R> {
    const params = (request.params ?? {}) as Params;
    const attributes = this.attributesOf(method, params, ctx, where);
    const target = (attributes[A.GEN_AI_TOOL_NAME] ?? attributes[A.GEN_AI_PROMPT_NAME]) as string | undefined;
    const parent = parentContext(params._meta, ctx.http?.req?.headers);
    const span = this.tracer.startSpan(target ? `${method} ${target}` : method, { kind: SpanKind.SERVER, attributes }, parent);
    const recording = span.isRecording();
    if (recording) this.recordRequest(span, method, request, params, ctx);
    const started = performance.now();
    let running: Promise<R>;
    try {
      // A span that records nothing and continues no trace has nothing for the tool to inherit: no context to enter.
      running = recording || isSpanContextValid(span.spanContext()) ? context.with(trace.setSpan(parent, span), handler, undefined, request, ctx) : handler(request, ctx);
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (result) => {
        const failed = method === 'tools/call' && (result as { isError?: boolean } | undefined)?.isError === true;
        if (recording && method === 'tools/call' && this.options.recordResults) span.setAttribute(A.GEN_AI_TOOL_CALL_RESULT, clipped(resultData(result)));
        this.end(span, attributes, started, failed ? 'tool_error' : undefined);
        return result;
      },
      (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === 'number') span.setAttribute(A.RPC_RESPONSE_STATUS_CODE, String(code));
        this.end(span, attributes, started, errorTypeOf(error), error);
        throw error;
      },
    );
  }

  /**
   * Runs one call a code-mode program makes inside an INTERNAL span, `tools/call <tool>`, child of
   * `parent` (the `execute` request's context, taken when it began: the call itself arrives from the
   * sandbox's worker, outside it). Not measured in `mcp.server.operation.duration`: it is no request.
   */
  inner<R>(tool: string, parent: Context, run: () => Promise<R>): Promise<R> {
    const attributes: Attributes = {
      [A.MCP_METHOD_NAME]: 'tools/call',
      [A.GEN_AI_TOOL_NAME]: labelOf(tool, this.known.tools),
      [A.GEN_AI_OPERATION_NAME]: 'execute_tool',
      [A.TOOLSETS_CODE_MODE]: true,
    };
    const span = this.tracer.startSpan(`tools/call ${String(attributes[A.GEN_AI_TOOL_NAME])}`, { kind: SpanKind.INTERNAL, attributes }, parent);
    const ended = (errorType?: string, error?: unknown) => {
      if (errorType !== undefined) {
        span.setAttribute(A.ERROR_TYPE, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error && { message: error.message }) });
      }
      span.end();
    };
    return context.with(trace.setSpan(parent, span), run).then(
      (result) => {
        ended((result as { isError?: boolean } | undefined)?.isError === true ? 'tool_error' : undefined);
        return result;
      },
      (error: unknown) => {
        ended(errorTypeOf(error), error);
        throw error;
      },
    );
  }

  /**
   * A span, already ended, for a request the HTTP transport answered itself (a list from its cache,
   * which never reaches the SDK's handlers), from `startedAt` (`performance.now()`) to now.
   */
  answered(method: string, request: { id?: unknown; params?: unknown }, headers: HeaderLookup, protocolVersion: string | undefined, startedAt: number): void {
    const params = (request.params ?? {}) as Params;
    const attributes: Attributes = { [A.MCP_METHOD_NAME]: method, [A.NETWORK_TRANSPORT]: 'tcp', [A.NETWORK_PROTOCOL_NAME]: 'http' };
    if (protocolVersion) attributes[A.MCP_PROTOCOL_VERSION] = this.versionLabel(protocolVersion);
    const span = this.tracer.startSpan(method, { kind: SpanKind.SERVER, attributes, startTime: performance.timeOrigin + startedAt }, parentContext(params._meta, headers));
    if (span.isRecording() && (typeof request.id === 'string' || typeof request.id === 'number')) span.setAttribute(A.JSONRPC_REQUEST_ID, String(request.id));
    span.end();
    this.duration.record((performance.now() - startedAt) / 1000, attributes);
  }

  /** The span-only attributes (request id, session, resource URI, opted-in arguments): too many values for a metric. */
  private recordRequest(span: Span, method: string, request: { id?: unknown }, params: Params, ctx: ServerContext): void {
    const id = request.id ?? ctx.mcpReq.id;
    if (typeof id === 'string' || typeof id === 'number') span.setAttribute(A.JSONRPC_REQUEST_ID, String(id));
    if (ctx.sessionId) span.setAttribute(A.MCP_SESSION_ID, ctx.sessionId);
    if (method === 'resources/read' && typeof params.uri === 'string') span.setAttribute(A.MCP_RESOURCE_URI, params.uri);
    if (method === 'tools/call' && this.options.recordArguments) span.setAttribute(A.GEN_AI_TOOL_CALL_ARGUMENTS, clipped(params.arguments ?? {}));
  }

  private attributesOf(method: string, params: Params, ctx: ServerContext, where: RequestSite): Attributes {
    const attributes: Attributes = { [A.MCP_METHOD_NAME]: method };
    // Names and versions come from the caller: only the catalog's own are labels, the rest are one `_OTHER`.
    if (method === 'tools/call') {
      attributes[A.GEN_AI_TOOL_NAME] = labelOf(params.name, this.known.tools);
      attributes[A.GEN_AI_OPERATION_NAME] = 'execute_tool';
    }
    if (method === 'prompts/get') attributes[A.GEN_AI_PROMPT_NAME] = labelOf(params.name, this.known.prompts);
    const version = where.protocolVersion(ctx);
    if (version) attributes[A.MCP_PROTOCOL_VERSION] = this.versionLabel(version);
    const transport = where.transport ?? (ctx.http?.req ? 'http' : undefined);
    if (transport === 'http') {
      attributes[A.NETWORK_TRANSPORT] = 'tcp';
      attributes[A.NETWORK_PROTOCOL_NAME] = 'http';
    } else if (transport === 'stdio') {
      attributes[A.NETWORK_TRANSPORT] = 'pipe';
    }
    return attributes;
  }

  private versionLabel(version: string): string {
    return labelOf(version, this.known.protocolVersions);
  }

  private end(span: Span, attributes: Attributes, started: number, errorType: string | undefined, error?: unknown): void {
    const measured = errorType === undefined ? attributes : { ...attributes, [A.ERROR_TYPE]: errorType };
    if (errorType !== undefined) {
      span.setAttribute(A.ERROR_TYPE, errorType);
      span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error && { message: error.message }) });
    }
    span.end();
    // The span-only attributes (request id, session) stay off the metric: they are high-cardinality.
    this.duration.record((performance.now() - started) / 1000, measured);
  }
}

/** What the telemetry needs to know about the connection a request came on. */
export interface RequestSite {
  transport?: TransportKind;
  protocolVersion(ctx: ServerContext): string | undefined;
}

function labelOf(name: unknown, known: ReadonlySet<string>): string {
  return typeof name === 'string' && known.has(name) ? name : OTHER_NAME;
}

function errorTypeOf(error: unknown): string {
  if (error instanceof Error) return error.constructor.name || error.name;
  return '_OTHER';
}

function resultData(result: unknown): unknown {
  const record = result as { structuredContent?: unknown; content?: unknown } | undefined;
  return record?.structuredContent ?? record?.content ?? null;
}

function clipped(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > RECORDED_CHARS ? `${text.slice(0, RECORDED_CHARS)}…` : text;
}
