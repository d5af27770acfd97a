import 'reflect-metadata';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildServer, serveHttp, type HttpServerHandle } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';
import { installTestTelemetry } from '../support/telemetry';
import { WeatherToolset } from '../support/weather-toolset';

const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN = 'b7ad6b7169203331';
const traceparent = (span = CLIENT_SPAN) => `00-${CLIENT_TRACE}-${span}-01`;

const telemetry = installTestTelemetry();
afterAll(() => telemetry.uninstall());
beforeEach(() => telemetry.spans.reset());

const server = (options: Parameters<typeof buildServer>[0]['telemetry'] = undefined) =>
  buildServer({ name: 'weather', version: '1', toolsets: [WeatherToolset], logger: recordingLogger().logger, ...(options !== undefined && { telemetry: options }) });

function finished(name: string) {
  return telemetry.spans.getFinishedSpans().filter((span) => span.name === name);
}

describe('a SERVER span per MCP request', () => {
  it('is named by method and tool, carries the MCP attributes, and continues the trace in params._meta', async () => {
    const client = await connectClient(server());
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo-secret-city' }, _meta: { traceparent: traceparent() } });
    const [span] = finished('tools/call get_weather');
    expect(span).toBeDefined();
    expect(span!.kind).toBe(SpanKind.SERVER);
    expect(span!.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(span!.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': expect.any(String),
    });
    expect(span!.attributes['error.type']).toBeUndefined();
    expect(JSON.stringify(telemetry.spans.getFinishedSpans().map((s) => s.attributes))).not.toContain('secret-city');
    const [inner] = finished('inside the tool');
    expect(inner!.parentSpanContext?.spanId).toBe(span!.spanContext().spanId);
    await client.close();
  });

  it("records error.type tool_error for an isError result, and the exception's class for a refused request", async () => {
    const client = await connectClient(server());
    await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow("Unknown tool 'no_such_tool'");
    const [failed] = finished('tools/call get_weather');
    expect(failed!.attributes['error.type']).toBe('tool_error');
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    // A name the catalog lacks is the caller's: it names neither the span nor a label.
    const [unknown] = finished('tools/call _OTHER');
    expect(unknown!.attributes).toMatchObject({ 'gen_ai.tool.name': '_OTHER', 'error.type': 'ProtocolError', 'rpc.response.status_code': '-32602' });
    await client.close();
  });

  it("traces a 2025-era session's initialize, list and call alike", async () => {
    const client = await connectLegacyClient(server());
    await client.listTools();
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    const names = telemetry.spans.getFinishedSpans().map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['initialize', 'tools/list', 'tools/call get_weather']));
    expect(finished('tools/call get_weather')[0]!.attributes['mcp.protocol.version']).toMatch(/^2025-/);
    await client.close();
  });

  it('records arguments and results only when asked to', async () => {
    const client = await connectClient(server({ recordArguments: true, recordResults: true }));
    await client.callTool({ name: 'get_weather', arguments: { city: 'Bergen' } });
    expect(finished('tools/call get_weather')[0]!.attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"city":"Bergen"}',
      'gen_ai.tool.call.result': '{"message":"Sunny in Bergen","celsius":21}',
    });
    await client.close();
  });

  it('records nothing with telemetry: false', async () => {
    const client = await connectClient(server(false));
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(finished('tools/call get_weather')).toEqual([]);
    await client.close();
  });
});

describe('over HTTP', () => {
  let http: HttpServerHandle;
  beforeAll(async () => (http = await serveHttp(server(), { port: 0, logger: recordingLogger().logger })));
  afterAll(() => http.close());

  async function callOverHttp(meta: Record<string, string> | undefined, headers: Record<string, string>) {
    const client = new Client({ name: 'http', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url), { requestInit: { headers } }));
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' }, ...(meta && { _meta: meta }) });
    await client.close();
    return finished('tools/call get_weather').at(-1)!;
  }

  it('continues the trace in the traceparent header, with network.transport tcp', async () => {
    const span = await callOverHttp(undefined, { traceparent: traceparent() });
    expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(span.attributes).toMatchObject({ 'network.transport': 'tcp', 'network.protocol.name': 'http', 'mcp.protocol.version': expect.any(String) });
  });

  it('traces a tools/list the transport answers from its list cache, in the trace of the header', async () => {
    const client = new Client({ name: 'http', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.mounts[0]!.url), { requestInit: { headers: { traceparent: traceparent() } } }));
    telemetry.spans.reset();
    const listed = await client.listTools();
    await client.close();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['get_weather']);
    const spans = finished('tools/list');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.kind).toBe(SpanKind.SERVER);
    expect(spans[0]!.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    expect(spans[0]!.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'network.transport': 'tcp', 'mcp.protocol.version': '2026-07-28', 'jsonrpc.request.id': expect.any(String) });
    const metric = await telemetry.histogram('mcp.server.operation.duration');
    expect(metric!.dataPoints.some((p) => p.attributes['mcp.method.name'] === 'tools/list' && p.value.count >= 1)).toBe(true);
  });

  it('prefers params._meta over the header', async () => {
    const span = await callOverHttp({ traceparent: traceparent('00f067aa0ba902b7') }, { traceparent: traceparent() });
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });
});

describe('the mcp.server.operation.duration histogram', () => {
  it('counts each request in seconds with the low-cardinality attributes only', async () => {
    const client = await connectClient(server());
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
    const metric = await telemetry.histogram('mcp.server.operation.duration');
    expect(metric?.descriptor.unit).toBe('s');
    const points = metric!.dataPoints.filter((p) => p.attributes['gen_ai.tool.name'] === 'get_weather');
    const ok = points.find((p) => p.attributes['error.type'] === undefined)!;
    const failed = points.find((p) => p.attributes['error.type'] === 'tool_error')!;
    expect(ok.value.count).toBeGreaterThanOrEqual(1);
    expect(failed.value.count).toBeGreaterThanOrEqual(1);
    expect(ok.value.sum).toBeLessThan(1);
    expect(Object.keys(ok.attributes).sort()).toEqual(['gen_ai.operation.name', 'gen_ai.tool.name', 'mcp.method.name', 'mcp.protocol.version']);
    await client.close();
  });
});
