import { metrics, type Attributes, type Histogram, type MeterProvider } from '@opentelemetry/api';
import { DURATION_BUCKETS, MCP_SERVER_OPERATION_DURATION } from './mcp-attributes';

const METER_NAME = '@toolsets/core';

/** The most characters a label value carries: every value is bounded, whatever its source. */
export const LABEL_CHARS = 128;

/** Meter providers that get core's metrics besides the global one (the `/metrics` endpoint's, when the app has its own). */
const extraProviders = new Set<MeterProvider>();

/** Sends core's metrics to `provider` too, until the returned function is called. */
export function addMeterProvider(provider: MeterProvider): () => void {
  extraProviders.add(provider);
  return () => void extraProviders.delete(provider);
}

/**
 * `mcp.server.operation.duration`, from whichever meter providers are registered when it records:
 * the global one is looked up each time (cheaply), so an SDK the app registers after
 * `buildServer` still gets every measurement.
 */
export class OperationDuration {
  private readonly histograms = new Map<MeterProvider, Histogram>();

  record(seconds: number, attributes: Attributes): void {
    attributes = bounded(attributes);
    this.histogramOf(metrics.getMeterProvider()).record(seconds, attributes);
    if (extraProviders.size > 0) for (const provider of extraProviders) this.histogramOf(provider).record(seconds, attributes);
  }

  private histogramOf(provider: MeterProvider): Histogram {
    let histogram = this.histograms.get(provider);
    if (!histogram) {
      histogram = provider.getMeter(METER_NAME).createHistogram(MCP_SERVER_OPERATION_DURATION, {
        description: 'MCP request duration as observed on the server, from receiving the request to sending its answer.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
      this.histograms.set(provider, histogram);
    }
    return histogram;
  }
}

function bounded(attributes: Attributes): Attributes {
  let copy: Attributes | undefined;
  for (const key in attributes) {
    const value = attributes[key];
    if (typeof value === 'string' && value.length > LABEL_CHARS) (copy ??= { ...attributes })[key] = value.slice(0, LABEL_CHARS);
  }
  return copy ?? attributes;
}
