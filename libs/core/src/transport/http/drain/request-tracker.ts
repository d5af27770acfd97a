import type { ServerResponse } from 'node:http';
import type { ConnectionTracker } from './connection-tracker';
import { answerCut, requestIds, type RequestId } from './cut-answers';

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

/** The JSON-RPC requests one POST carries: what the drain answers for it if it has to cut it. */
interface Carried {
  ids: RequestId[];
  batch: boolean;
}

/** How long the answers to requests cut at the drain's end may take to be sent before their connections close. */
const CUT_FLUSH_MS = 1_000;

/** Requests being served, the JSON-RPC requests each carries once known, and the responses that may still take `Connection: close`. */
export class RequestTracker {
  readonly #active = new Map<ServerResponse, Carried | undefined>();
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
    this.#active.set(res, undefined);
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

  /** Records the JSON-RPC requests of `res`'s parsed POST body, for the drain to answer should it cut them. */
  carries(res: ServerResponse, parsed: object): void {
    if (!this.#active.has(res)) return;
    const ids = requestIds(parsed);
    if (ids.length > 0) this.#active.set(res, { ids, batch: Array.isArray(parsed) });
  }

  /** Readiness turns 503; connections stay as they are, so a balancer keeps reusing them rather than opening new ones. */
  startDraining(): void {
    this.#draining = true;
  }

  /** From now on every response closes its connection, including those not yet started. */
  closeConnections(): void {
    this.#closing = true;
    for (const res of this.#active.keys()) if (!res.headersSent) closeAfter(res);
  }

  /**
   * At the drain's end: answers every request still in flight with `message` (answerCut), and
   * resolves once those answers are sent, or after CUT_FLUSH_MS. Gives how many requests it answered.
   */
  async answerEachCut(message: string): Promise<number> {
    let answered = 0;
    const sent: Promise<void>[] = [];
    for (const [res, carried] of this.#active) {
      if (!carried || !answerCut(res, carried.ids, message, carried.batch)) continue;
      answered += carried.ids.length;
      sent.push(new Promise((resolve) => (res.writableFinished ? resolve() : res.once('finish', resolve).once('close', resolve))));
    }
    if (sent.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(sent), new Promise((resolve) => (timer = setTimeout(resolve, CUT_FLUSH_MS)))]);
      clearTimeout(timer);
    }
    return answered;
  }

  whenIdle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#onIdle = resolve));
  }
}
