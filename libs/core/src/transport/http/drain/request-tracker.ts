import type { ServerResponse } from 'node:http';
import type { ConnectionTracker } from './connection-tracker';

/**
 * Makes `res` close its connection once sent, even when the SDK's own headers say keep-alive (its
 * event-stream answers do): a client reusing the connection then opens a new one, elsewhere.
 */
function closeAfter(res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    return Reflect.apply(writeHead, this, args.map((arg, index) => (index > 0 && arg && typeof arg === 'object' ? withoutConnection(arg) : arg)));
  } as ServerResponse['writeHead'];
}

/** `headers` (an object or a flat list of names and values) without a `connection` field, so the one set here stands. */
function withoutConnection(headers: object): object {
  if (Array.isArray(headers)) {
    const kept: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() !== 'connection') kept.push(headers[i], headers[i + 1]);
    return kept;
  }
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'connection'));
}

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
    if (this.#closing) closeAfter(res);
    const socket = res.socket;
    const connection = this.connections.use(socket);
    if (connection) connection.active++;
    res.once('close', () => {
      if (connection) {
        connection.active--;
        connection.lastDone = Date.now();
        this.connections.requestEnded(socket!);
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
    for (const res of this.#active) if (!res.headersSent) closeAfter(res);
  }

  whenIdle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onIdle = resolve));
  }
}
