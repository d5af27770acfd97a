import type { Server as NodeHttpServer } from 'node:http';
import type { Socket } from 'node:net';

const OVER_CAPACITY_BODY = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many open connections; retry shortly.' }, id: null });
const OVER_CAPACITY =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(OVER_CAPACITY_BODY)}\r\n\r\n${OVER_CAPACITY_BODY}`;

/**
 * Counts open connections and refuses those over the cap with a 503 and `Retry-After`, written on
 * the socket before the connection is closed. Tells the drain when the last connection is gone.
 */
export class ConnectionTracker {
  readonly #open = new Set<Socket>();
  readonly #refused = new WeakSet<Socket>();
  #onEmpty: (() => void) | undefined;

  constructor(
    http: NodeHttpServer,
    private readonly maxConnections: number,
  ) {
    http.on('connection', (socket: Socket) => this.accept(socket));
  }

  get size(): number {
    return this.#open.size;
  }

  /** Whether this socket was refused at connect time (its requests must not be served). */
  refused(socket: Socket): boolean {
    return this.#refused.has(socket);
  }

  /** Resolves once no connection is open. */
  whenEmpty(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onEmpty = resolve));
  }

  private accept(socket: Socket): void {
    if (this.#open.size >= this.maxConnections) {
      this.#refused.add(socket);
      socket.on('error', () => undefined);
      socket.end(OVER_CAPACITY);
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    this.#open.add(socket);
    socket.once('close', () => {
      this.#open.delete(socket);
      if (this.#open.size === 0) this.#onEmpty?.();
    });
  }
}
