import type { Server as NodeHttpServer } from 'node:http';
import type { Socket } from 'node:net';

const OVER_CAPACITY_BODY = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many open connections; retry shortly.' }, id: null });
const OVER_CAPACITY =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(OVER_CAPACITY_BODY)}\r\n\r\n${OVER_CAPACITY_BODY}`;

/** How one open connection is used: requests on it now, and when its last answer ended (undefined: none yet). */
export interface ConnectionUse {
  active: number;
  lastDone: number | undefined;
}

/**
 * Counts open connections and refuses those over the cap with a 503 and `Retry-After`, written on
 * the socket before the connection is closed. Keeps how each is used, so the drain can tell which
 * a balancer holds idle, and tells it when the last connection is gone.
 */
export class ConnectionTracker {
  readonly #open = new Map<Socket, ConnectionUse>();
  readonly #refused = new WeakSet<Socket>();
  /** Idle connections past their keep-alive time, held for the grace: the timer that closes each. */
  readonly #inGrace = new Map<Socket, { timer: NodeJS.Timeout; readBefore: number }>();
  #graceMs: number;
  /** Set by closeWhenIdle(). */
  #closingIdle = false;
  #onEmpty: (() => void) | undefined;
  /** When the last connection arrived (refused ones too), by `performance.now()`. */
  #lastArrival = -Infinity;

  /**
   * `idleGraceMs`: how much longer than its advertised keep-alive time an idle connection is held.
   * A client counts that time from when it read the last answer, on its own clock, and Node's
   * `fetch` counts it in 499 ms ticks that fall behind on a busy event loop: a client that reads
   * late or counts slowly sends its next request on a connection it believes open, and a server
   * that closed it at the advertised time resets a POST the client does not retry.
   */
  constructor(
    http: NodeHttpServer,
    private readonly maxConnections: number,
    idleGraceMs = 0,
  ) {
    this.#graceMs = idleGraceMs;
    http.on('connection', (socket: Socket) => this.accept(socket));
    // With a listener, Node no longer destroys a connection whose keep-alive time ran out: this does, when it is really idle.
    http.on('timeout', (socket: Socket) => this.expire(socket));
  }

  /** From now on an idle connection closes at its keep-alive time, without the grace (the drain: clients are told to close anyway). */
  endGrace(): void {
    this.#graceMs = 0;
    for (const [socket, { timer, readBefore }] of this.#inGrace) {
      clearTimeout(timer);
      this.#inGrace.delete(socket);
      this.closeIfIdle(socket, readBefore);
    }
  }

  /** A connection's keep-alive time ran out: close it now if idle, or once the grace has passed with no request on it. */
  private expire(socket: Socket): void {
    const readBefore = socket.bytesRead;
    if (this.#graceMs === 0) return this.closeIfIdle(socket, readBefore);
    // A request came during the grace and its keep-alive time ran out again: count the grace from now.
    clearTimeout(this.#inGrace.get(socket)?.timer);
    const timer = setTimeout(() => {
      this.#inGrace.delete(socket);
      this.closeIfIdle(socket, readBefore);
    }, this.#graceMs).unref();
    this.#inGrace.set(socket, { timer, readBefore });
  }

  /**
   * Closes a connection that carried nothing since `readBefore`, once the event loop has polled its
   * socket: on a busy process the timer can fire while a client's next request already sits unread
   * in the socket, and closing then resets a request the client cannot retry. A request read in that
   * poll is answered instead (and Node starts the keep-alive time again after it).
   */
  private closeIfIdle(socket: Socket, readBefore: number): void {
    setImmediate(() => {
      const use = this.#open.get(socket);
      if (use && use.active === 0 && socket.bytesRead === readBefore && socket.readableLength === 0) socket.destroy();
    });
  }

  /**
   * From now on every connection closes as soon as it carries no request (once the event loop has
   * polled it, as above): those idle now, and each busy one after its last answer, which may have
   * gone out with `keep-alive` already (an event stream's head is sent when the call starts).
   */
  closeWhenIdle(): void {
    this.#closingIdle = true;
    for (const [socket, use] of this.#open) if (use.active === 0) this.closeIfIdle(socket, socket.bytesRead);
  }

  /** A request on `socket` has ended: its connection closes now if it carries no other and closeWhenIdle() was called. */
  requestEnded(socket: Socket): void {
    if (this.#closingIdle && this.#open.get(socket)?.active === 0) this.closeIfIdle(socket, socket.bytesRead);
  }

  get size(): number {
    return this.#open.size;
  }

  /** How long ago the last connection arrived, in ms (Infinity when none has). */
  sinceLastArrival(): number {
    return performance.now() - this.#lastArrival;
  }

  /** Whether this socket was refused at connect time (its requests must not be served). */
  refused(socket: Socket): boolean {
    return this.#refused.has(socket);
  }

  /** How this open connection is used, for the request tracker to update (undefined once it closed). */
  use(socket: Socket | null): ConnectionUse | undefined {
    return socket ? this.#open.get(socket) : undefined;
  }

  /**
   * Connections a balancer holds idle in its pool: each has carried a request, carries none now,
   * and answered its last at least `settledMs` ago, so the balancer has read that answer. A
   * connection that has carried no request yet is not counted: a balancer opens one to send a request.
   */
  idleInBalancer(settledMs: number): number {
    const before = Date.now() - settledMs;
    let idle = 0;
    for (const { active, lastDone } of this.#open.values()) if (active === 0 && lastDone !== undefined && lastDone <= before) idle++;
    return idle;
  }

  /** Resolves once no connection is open. */
  whenEmpty(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onEmpty = resolve));
  }

  private accept(socket: Socket): void {
    this.#lastArrival = performance.now();
    if (this.#open.size >= this.maxConnections) {
      this.#refused.add(socket);
      socket.on('error', () => undefined);
      socket.end(OVER_CAPACITY);
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    this.#open.set(socket, { active: 0, lastDone: undefined });
    socket.once('close', () => {
      this.#open.delete(socket);
      const grace = this.#inGrace.get(socket);
      if (grace) {
        clearTimeout(grace.timer);
        this.#inGrace.delete(socket);
      }
      if (this.#open.size === 0) this.#onEmpty?.();
    });
  }
}
