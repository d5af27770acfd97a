import { context as otelContext, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RequestContext, type ToolError } from '@toolsets/core';
import { OpenApiClient } from '../src';
import { json, startUpstream, type Upstream } from './support/hostile-upstream';

const KEY = 'query-secret-key';

function callContext(): RequestContext {
  return new RequestContext({
    transport: 'http',
    era: 'modern',
    toolset: 'items',
    tool: 't',
    credentialHeaders: ['x-api-key'],
    headers: { get: (name) => (name === 'x-api-key' ? KEY : undefined), entries: () => ({ 'x-api-key': KEY }) },
    signal: new AbortController().signal,
    client: () => undefined,
  });
}

describe('an upstream request under an MCP request span', () => {
  const spans = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  let upstream: Upstream;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    otelContext.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    upstream = await startUpstream({ '/v1/items/7': json(200, { id: 7 }), '/v1/items/8': json(404, { message: 'gone' }) });
  });
  afterAll(async () => {
    await upstream.close();
    trace.disable();
    otelContext.disable();
    propagation.disable();
  });

  it('is a CLIENT child span that sends its trace upstream and never records the credential', async () => {
    const client = new OpenApiClient({ baseUrl: `${upstream.origin}/v1`, name: 'items', credential: { header: 'x-api-key', sendAs: { in: 'query', name: 'api_key' } } } as never);
    const server = trace.getTracer('test').startSpan('tools/call get_item', { kind: SpanKind.SERVER });
    await otelContext.with(trace.setSpan(otelContext.active(), server), async () => {
      await client.call({ method: 'GET', path: '/items/{id}', pathParams: { id: 7 } }, callContext());
      const missing = (await client.call({ method: 'GET', path: '/items/{id}', pathParams: { id: 8 } }, callContext())) as ToolError;
      expect(missing.error).toBe('http_404');
    });
    server.end();
    client.close();

    const [ok, notFound] = spans.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(ok!.name).toBe('GET /items/{id}');
    expect(ok!.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(ok!.attributes).toMatchObject({ 'http.request.method': 'GET', 'url.template': '/items/{id}', 'server.address': '127.0.0.1', 'http.response.status_code': 200 });
    expect(notFound!.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
    const sent = upstream.seen[0]!;
    expect(sent.headers.traceparent).toBe(`00-${ok!.spanContext().traceId}-${ok!.spanContext().spanId}-01`);
    expect(sent.url).toContain(KEY);
    expect(JSON.stringify(spans.getFinishedSpans().map((span) => [span.name, span.attributes]))).not.toContain(KEY);
  });
});
