import type { ServerResponse } from 'node:http';
import type { ConnectionTracker } from './connection-tracker';

/** Requests being served, and the responses that may still take `Connection: close`. */
export class RequestTracker {
  readonly #active = new Set<ServerResponse>();
  #draining = false;
  #closing = false;
  #onIdle: (() => void) | undefined;

  constructor(private readonly connections: ConnectionTracker) {}

  get size(): number {
    return this.#active.size;
  }

  get draining(): boolean {
    return this.#draining;
  }

  begin(res: ServerResponse): void {
    this.#active.add(res);
    if (this.#closing) res.setHeader('connection', 'close');
    const connection = this.connections.use(res.socket);
    if (connection) connection.active++;
    res.once('close', () => {
      if (connection) {
        connection.active--;
        connection.lastDone = Date.now();
      }
      this.#active.delete(res);
      if (this.#active.size === 0) this.#onIdle?.();
    });
  }

  /** Readiness turns 503; connections stay as they are, so a balancer keeps reusing them rather than opening new ones. */
  startDraining(): void {
    this.#draining = true;
  }

  /** From now on every response closes its connection, including those not yet started. */
  closeConnections(): void {
    this.#closing = true;
    for (const res of this.#active) if (!res.headersSent) res.setHeader('connection', 'close');
  }

  whenIdle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onIdle = resolve));
  }
}
