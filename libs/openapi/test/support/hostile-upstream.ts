import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface Upstream {
  server: Server;
  origin: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Route = (req: IncomingMessage, res: ServerResponse, upstream: Upstream) => void;

/** A loopback HTTP server answering by exact path, recording every request it gets (404 elsewhere). */
export function startUpstream(routes: Record<string, Route> = {}, host = '127.0.0.1'): Promise<Upstream> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const upstream = { seen } as Upstream;
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (route) return route(req, res, upstream);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'no such route' }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, host, () => {
      const port = (server.address() as AddressInfo).port;
      Object.assign(upstream, {
        server,
        port,
        origin: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
      resolve(upstream);
    }),
  );
}

/** A 200 (or `status`) whose body never ends: 64 KiB chunks as fast as the client reads, until it goes away. */
export function endless(status = 200, contentType = 'application/json'): Route {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return (req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.write('[');
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', pump);
    res.once('close', () => res.off('drain', pump));
    pump();
  };
}

/** A 200 whose body sends one byte every `everyMs`, forever (until the client goes away). */
export function dribble(everyMs = 50): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), everyMs);
    res.once('close', () => clearInterval(timer));
  };
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Route {
  return (_req, res) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

export function raw(status: number, body: string, headers: Record<string, string>): Route {
  return (_req, res) => void res.writeHead(status, headers).end(body);
}

export function redirect(status: number, location: (upstream: Upstream) => string): Route {
  return (_req, res, upstream) => void res.writeHead(status, { location: location(upstream) }).end();
}
