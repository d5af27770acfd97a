import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics } from '@opentelemetry/api';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { addMeterProvider } from '../../telemetry/operation-metrics';
import { MCP_SERVER_OPERATION_DURATION } from '../../telemetry/mcp-attributes';
import { sendJson } from './http-replies';
import type { Logger } from '../../server/logging/logger';
import { MetricsPackagesMissingError } from '../../errors/metrics-packages-missing.error';
import { loadOptionalPackages } from '../../helpers/optional-packages';

type MetricsSdk = typeof import('@opentelemetry/sdk-metrics');
type PrometheusExporterModule = typeof import('@opentelemetry/exporter-prometheus');

/**
 * What `/metrics` needs beyond `@opentelemetry/api`: optional peer dependencies of core (about
 * 16 MB with what they pull in), loaded only when METRICS is on. The ranges are core's peer ranges.
 */
export const METRICS_PACKAGES: Readonly<Record<string, string>> = {
  '@opentelemetry/sdk-metrics': '^2.12.0',
  '@opentelemetry/exporter-prometheus': '0.223.0',
};

/** The metrics SDK and the Prometheus exporter, or an error naming the missing ones and the install command. */
export function loadMetricsPackages(load: (name: string) => unknown = require): { sdk: MetricsSdk; prometheus: PrometheusExporterModule } {
  const { loaded, missing } = loadOptionalPackages(Object.keys(METRICS_PACKAGES), load);
  if (missing.length > 0) throw new MetricsPackagesMissingError(missing, METRICS_PACKAGES);
  return { sdk: loaded.get('@opentelemetry/sdk-metrics') as MetricsSdk, prometheus: loaded.get('@opentelemetry/exporter-prometheus') as PrometheusExporterModule };
}

/** The path Prometheus scrapes, on the MCP port or on `METRICS_PORT`. */
export const METRICS_PATH = '/metrics';

/**
 * `/metrics` in the Prometheus text format, from the OpenTelemetry Prometheus exporter: the
 * `mcp.server.operation.duration` histogram of every mount, as `mcp_server_operation_duration_seconds`.
 * When the app has registered no meter provider of its own, this one becomes the global provider,
 * so the app's own OpenTelemetry metrics are scraped too; otherwise only core's are sent here.
 * The SDK packages (optional peers of core) load when the endpoint starts, so a server without it
 * never loads them, and an install without them needs them only for METRICS=on.
 */
export class MetricsEndpoint {
  private readonly serializer: PrometheusSerializer;
  private readonly tokenHash: Buffer | undefined;

  private constructor(
    private readonly exporter: PrometheusExporter,
    private readonly provider: MeterProvider,
    private readonly release: () => void,
    private readonly logger: Logger,
    token: string | undefined,
    serializer: PrometheusSerializer,
  ) {
    this.tokenHash = token === undefined ? undefined : sha256(token);
    this.serializer = serializer;
  }

  static start(logger: Logger, token?: string): MetricsEndpoint {
    const { sdk, prometheus } = loadMetricsPackages();
    const { PrometheusExporter, PrometheusSerializer } = prometheus;
    const { MeterProvider } = sdk;
    const exporter = new PrometheusExporter({ preventServerStart: true });
    // Prometheus names carry their unit (`_seconds`); this exporter does not append it, so a view does.
    const provider = new MeterProvider({ readers: [exporter], views: [{ instrumentName: MCP_SERVER_OPERATION_DURATION, name: `${MCP_SERVER_OPERATION_DURATION}_seconds` }] });
    const global = metrics.setGlobalMeterProvider(provider);
    const release = global ? () => metrics.disable() : addMeterProvider(provider);
    return new MetricsEndpoint(exporter, provider, release, logger, token, new PrometheusSerializer());
  }

  serve(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed: use GET.' }, { allow: 'GET, HEAD' });
    if (!this.authorized(req)) return sendJson(res, 401, { error: 'Unauthorized: /metrics needs the bearer token set in METRICS_TOKEN.' }, { 'www-authenticate': 'Bearer realm="metrics"' });
    void this.answer(res);
  }

  /** Compared as hashes, in constant time: the token's length and letters leak nothing. */
  private authorized(req: IncomingMessage): boolean {
    if (!this.tokenHash) return true;
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    return sent !== undefined && timingSafeEqual(sha256(sent), this.tokenHash);
  }

  /** The scrape's text, or a 500 that says why: building it never throws out of the process. */
  private async answer(res: ServerResponse): Promise<void> {
    let text: string;
    try {
      const { resourceMetrics, errors } = await this.exporter.collect();
      if (errors.length > 0) this.logger.warn('metrics collection reported errors', { errors: errors.map(String) });
      text = this.serializer.serialize(resourceMetrics);
    } catch (error) {
      this.logger.error('metrics could not be built', { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
      if (!res.headersSent) sendJson(res, 500, { error: 'The metrics could not be built; the server log says why.' });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  }

  async close(): Promise<void> {
    this.release();
    await this.provider.shutdown();
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
