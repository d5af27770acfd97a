import { createServer, type Server as NodeHttpServer } from 'node:http';
import { AuthSettingError } from '../../errors/auth-setting.error';
import { clip } from '../../helpers/client-text';
import type { Logger } from '../../server/logging/logger';
import type { HostPolicy } from '../guards/host-policy';
import { requestTarget } from '../guards/request-target';
import { sendJson } from './http-replies';
import { listen, originOf } from './listening';
import { METRICS_PATH, MetricsEndpoint } from './metrics-endpoint';

/**
 * Where `/metrics` is served: on the MCP port (the router's), on a port of its own
 * (`METRICS_PORT`), or nowhere (metrics off: every method does nothing).
 */
export class MetricsServing {
  private constructor(
    private readonly endpoint: MetricsEndpoint | undefined,
    private readonly ownServer: NodeHttpServer | undefined,
    private readonly port: number | undefined,
  ) {}

  /**
   * `tokensChecked`: some mount checks access tokens. Its tools' names and traffic are then not for
   * anyone who reaches the MCP port: `/metrics` goes on `METRICS_PORT` or behind `METRICS_TOKEN`.
   */
  static of(options: { metrics?: boolean; metricsPort?: number; metricsToken?: string }, hostPolicy: HostPolicy, logger: Logger, tokensChecked: boolean): MetricsServing {
    if (!options.metrics) return new MetricsServing(undefined, undefined, undefined);
    if (tokensChecked && options.metricsPort === undefined && !options.metricsToken) {
      throw new AuthSettingError(
        'METRICS',
        'is on while a mount checks access tokens, and /metrics would be served on the MCP port to anyone, naming every tool and its traffic',
        'set METRICS_PORT to a port only your scraper reaches (the manifests use 9464), or METRICS_TOKEN to a secret Prometheus sends as a bearer token',
      );
    }
    const endpoint = MetricsEndpoint.start(logger, options.metricsToken);
    const port = options.metricsPort;
    return new MetricsServing(endpoint, port === undefined ? undefined : metricsOnlyServer(endpoint, hostPolicy), port);
  }

  /** The endpoint the MCP port's router serves, unless it has a port of its own. */
  get onMcpPort(): MetricsEndpoint | undefined {
    return this.ownServer ? undefined : this.endpoint;
  }

  async listen(host: string): Promise<void> {
    if (this.ownServer) await listen(this.ownServer, this.port!, host);
  }

  /** Where Prometheus scrapes, given the MCP port's origin; undefined when metrics are off. */
  url(mcpOrigin: string): string | undefined {
    if (!this.endpoint) return undefined;
    return `${this.ownServer ? originOf(this.ownServer) : mcpOrigin}${METRICS_PATH}`;
  }

  async close(): Promise<void> {
    if (this.ownServer?.listening) {
      const server = this.ownServer;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    await this.endpoint?.close();
  }
}

/** `METRICS_PORT`'s server: `/metrics` alone, behind the same Host/Origin policy as the MCP port. */
function metricsOnlyServer(metrics: MetricsEndpoint, hostPolicy: HostPolicy): NodeHttpServer {
  return createServer({ headersTimeout: 10_000, requestTimeout: 10_000 }, (req, res) => {
    const target = requestTarget(req);
    if (!target) return sendJson(res, 400, { error: 'Bad Request: the request target must be a path such as /metrics.' });
    const refusal = hostPolicy.check(req, target.authority);
    if (refusal) return sendJson(res, refusal.status, { error: refusal.message });
    if (target.path !== METRICS_PATH) return sendJson(res, 404, { error: `Nothing at ${clip(target.path)}: this port serves ${METRICS_PATH} only.` });
    metrics.serve(req, res);
  });
}
