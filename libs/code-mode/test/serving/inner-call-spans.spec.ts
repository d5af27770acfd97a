import 'reflect-metadata';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildServer, type Logger } from '@toolsets/core';
import { TrackerToolset } from '../support/shop-toolsets';

const { codeMode } = require('../../dist') as typeof import('../../src');
const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the calls a program makes, in OpenTelemetry', () => {
  const spans = new InMemorySpanExporter();
  const contextManager = new AsyncLocalStorageContextManager().enable();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });

  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(contextManager);
  });
  afterAll(() => {
    trace.disable();
    context.disable();
  });

  it("records each inner call as a span of its own under the execute request's span, a ToolError answer marked as a tool error", async () => {
    const definition = buildServer({ name: 'traced', version: '1.0.0', toolsets: [TrackerToolset], logger: quiet, codeMode: codeMode(), mode: 'code' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const connection = await definition.connect(serverSide);
    const client = new Client({ name: 'spans', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: 'execute', arguments: { program: "await api.tracker.list_issues({ state: 'open' });\nawait api.tracker.get_issue({ number: 404 });\nreturn 1;" } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
      await connection.close();
      await definition.codeMode!.close();
    }
    const finished = spans.getFinishedSpans();
    const outer = finished.find((span) => span.name === 'tools/call execute')!;
    const inner = finished.filter((span) => span.attributes['toolsets.code_mode.inner_call'] === true);
    expect(inner.map((span) => span.name)).toEqual(['tools/call list_issues', 'tools/call get_issue']);
    for (const span of inner) {
      expect(span.spanContext().traceId).toBe(outer.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    }
    // get_issue answered its declared ToolError (not_found): a tool error, as a direct call's span would say.
    expect(inner[1]!.attributes['error.type']).toBe('tool_error');
    expect(inner[0]!.attributes['error.type']).toBeUndefined();
  });
});
