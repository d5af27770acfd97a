import { context, propagation, trace, type Context, type TextMapGetter } from '@opentelemetry/api';

/** Reads a carrier that is a plain record (`params._meta`). */
const RECORD_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** One header by its lower-case name: a fetch `Headers`, or a lookup into a Node request's. */
export interface HeaderLookup {
  get(name: string): string | null | undefined;
}

/** Reads the trace headers of a request (a propagator asks only for the keys it knows). */
const HEADERS_GETTER: TextMapGetter<HeaderLookup> = {
  keys: () => ['traceparent', 'tracestate'],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/**
 * The context a request's span continues: the trace the client put in `params._meta`
 * (`traceparent`, `tracestate`), as the MCP conventions ask; else a span already active (an HTTP
 * server span from the app's own instrumentation, which read the headers); else the HTTP headers'.
 * Extraction is the registered propagator's (W3C Trace Context with the OpenTelemetry SDK).
 */
export function parentContext(meta: unknown, headers: HeaderLookup | undefined): Context {
  const active = context.active();
  if (meta !== null && typeof meta === 'object' && typeof (meta as Record<string, unknown>)['traceparent'] === 'string') {
    return propagation.extract(active, meta as Record<string, unknown>, RECORD_GETTER);
  }
  if (trace.getSpan(active) === undefined && headers?.get('traceparent')) return propagation.extract(active, headers, HEADERS_GETTER);
  return active;
}
