import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { addMeterProvider } from '../../telemetry/operation-metrics';
import { MCP_SERVER_OPERATION_DURATION } from '../../telemetry/mcp-attributes';
import { sendJson } from './http-replies';

/** The path Prometheus scrapes, on the MCP port or on `METRICS_PORT`. */
export const METRICS_PATH = '/metrics';

/**
 * `/metrics` in the Prometheus text format, from the OpenTelemetry Prometheus exporter: the
 * `mcp.server.operation.duration` histogram of every mount, as `mcp_server_operation_duration_seconds`.
 * When the app has registered no meter provider of its own, this one becomes the global provider,
 * so the app's own OpenTelemetry metrics are scraped too; otherwise only core's are sent here.
 * The SDK packages load when the endpoint starts, so a server without it never loads them.
 */
export class MetricsEndpoint {
  private constructor(
    private readonly exporter: PrometheusExporter,
    private readonly provider: MeterProvider,
    private readonly release: () => void,
  ) {}

  static start(): MetricsEndpoint {
    const { PrometheusExporter } = require('@opentelemetry/exporter-prometheus') as typeof import('@opentelemetry/exporter-prometheus');
    const { MeterProvider } = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
    const exporter = new PrometheusExporter({ preventServerStart: true });
    // Prometheus names carry their unit (`_seconds`); this exporter does not append it, so a view does.
    const provider = new MeterProvider({ readers: [exporter], views: [{ instrumentName: MCP_SERVER_OPERATION_DURATION, name: `${MCP_SERVER_OPERATION_DURATION}_seconds` }] });
    const global = metrics.setGlobalMeterProvider(provider);
    const release = global ? () => metrics.disable() : addMeterProvider(provider);
    return new MetricsEndpoint(exporter, provider, release);
  }

  serve(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD' });
    this.exporter.getMetricsRequestHandler(req, res);
  }

  async close(): Promise<void> {
    this.release();
    await this.provider.shutdown();
  }
}
