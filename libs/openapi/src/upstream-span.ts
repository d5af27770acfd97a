import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { ToolError } from '@toolsets/core';
import type { OperationCall } from './operation-call';

const tracer = trace.getTracer('@toolsets/openapi');

/**
 * A CLIENT span for one upstream request, a child of the MCP request's span (through the active
 * context), named `{method} {path template}` by the HTTP conventions. It never records the URL
 * itself: its query may carry the caller's credential.
 */
export function startUpstreamSpan(operation: OperationCall, baseUrl: URL): Span {
  const port = baseUrl.port ? Number(baseUrl.port) : baseUrl.protocol === 'https:' ? 443 : 80;
  return tracer.startSpan(`${operation.method} ${operation.path}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'http.request.method': operation.method, 'url.template': operation.path, 'server.address': baseUrl.hostname, 'server.port': port },
  });
}

/** Puts the span's trace context in the upstream request's headers (`traceparent`), as the registered propagator writes it. */
export function propagateTo(span: Span, headers: Record<string, string>): void {
  propagation.inject(trace.setSpan(context.active(), span), headers);
}

/** Ends the span with the upstream's status, or the ToolError the exchange ended in. */
export function endUpstreamSpan(span: Span, outcome: { status: number } | ToolError | Error): void {
  if (outcome instanceof Error) {
    span.setAttribute('error.type', outcome.constructor.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message });
  } else if ('status' in outcome) {
    span.setAttribute('http.response.status_code', outcome.status);
  } else {
    const status = /^http_(\d{3})$/.exec(outcome.error)?.[1];
    if (status) span.setAttribute('http.response.status_code', Number(status));
    span.setAttribute('error.type', status ?? outcome.error);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
