import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { ToolsetServer } from '../server/build-server';
import { stderrLogger, type Logger } from '../server/logger';
import { hostGuard } from './host-guard';

export interface HttpServeOptions {
  /** Default `127.0.0.1`: loopback, where only loopback Host/Origin headers are accepted. */
  host?: string;
  /** Default 8000; 0 picks a free port. */
  port?: number;
  /** Host names accepted in `Host`/`Origin` when bound to a non-loopback address. */
  allowedHosts?: readonly string[];
  /** Largest request body accepted, in bytes (default 1 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** How long `close()` waits for in-flight calls before cutting connections (default 10 s). */
  drainTimeoutMs?: number;
  logger?: Logger;
}

export interface MountInfo {
  name: string;
  url: string;
  tools: string[];
  credentialHeaders: readonly string[];
}

export interface HttpServerHandle {
  /** `http://host:port` */
  readonly origin: string;
  readonly mounts: readonly MountInfo[];
  /** Stops accepting, waits for in-flight requests (up to the drain timeout), then closes. */
  close(): Promise<void>;
}

interface Mount {
  server: ToolsetServer;
  path: string;
  handler: McpHttpHandler;
  node: NodeMcpRequestHandler;
}

/**
 * Serves over streamable HTTP, stateless: one server at `/mcp`, or several at `/<name>/mcp` with an
 * index at `/`. Each request gets a fresh SDK `Server` from the precomputed definitions, so one
 * endpoint answers 2026-07-28 and 2025-era clients and replicas need no shared state.
 */
export async function serveHttp(servers: ToolsetServer | readonly ToolsetServer[], options: HttpServeOptions = {}): Promise<HttpServerHandle> {
  const list = Array.isArray(servers) ? servers : [servers as ToolsetServer];
  const single = !Array.isArray(servers);
  const host = options.host ?? '127.0.0.1';
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const logger = options.logger ?? list[0]?.logger ?? stderrLogger;
  const onerror = (error: Error) => logger.warn('http request failed', { error: error.message });

  const mounts: Mount[] = list.map((server) => {
    const handler = createMcpHandler(server.createServer, { legacy: 'stateless', maxRequestBodySize: maxBodyBytes, onerror });
    return {
      server,
      path: single ? '/mcp' : `/${server.name}/mcp`,
      handler,
      node: toNodeHandler(handler, { maxRequestBodySize: maxBodyBytes, onerror }),
    };
  });
  const byPath = new Map(mounts.map((mount) => [mount.path, mount]));
  const guard = hostGuard(host, options.allowedHosts);
  if (!guard) logger.warn('bound to a non-loopback address without allowed hosts: Host and Origin are not checked', { host });

  let inFlight = 0;
  let drained: (() => void) | undefined;
  let origin = '';
  const describe = (): MountInfo[] =>
    mounts.map((mount) => ({
      name: mount.server.name,
      url: `${origin}${mount.path}`,
      tools: [...mount.server.catalog.tools.keys()],
      credentialHeaders: mount.server.credentialHeaders,
    }));

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    const mount = byPath.get(path);
    if (mount) return mount.node(req, res);
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'Method not allowed.' });
    if (path === '/') return sendJson(res, 200, { servers: describe() });
    if (path === '/health') return sendJson(res, 200, health(list));
    const mountHealth = mounts.find((m) => path === m.path.replace(/\/mcp$/, '/health'));
    if (mountHealth) return sendJson(res, 200, health([mountHealth.server]));
    return sendJson(res, 404, { error: `Nothing at ${path}. MCP endpoints: ${mounts.map((m) => m.path).join(', ')}.` });
  };

  const http: NodeHttpServer = createServer((req, res) => {
    inFlight++;
    res.on('close', () => {
      if (--inFlight === 0) drained?.();
    });
    if (guard && !guard(req, res)) return;
    route(req, res).catch((error: Error) => {
      logger.error('http handler failed', { error: error.message });
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8000, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    origin,
    mounts: describe(),
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      if (inFlight > 0) {
        const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.drainTimeoutMs ?? 10_000).unref());
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), timeout]);
      }
      http.closeAllConnections();
      await Promise.all(mounts.map((mount) => mount.handler.close()));
      await closed;
    },
  };
}

function health(servers: readonly ToolsetServer[]) {
  return {
    status: 'ok',
    tools: servers.flatMap((server) => [...server.catalog.tools.keys()]),
    credentialHeaders: [...new Set(servers.flatMap((server) => server.credentialHeaders))],
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
