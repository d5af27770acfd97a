import 'reflect-metadata';
import { connect, type Socket } from 'node:net';
import { buildServer, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '../../src';
import { recordingLogger } from '../support/connect';

@Toolset({ name: 'kept' })
class KeptToolset {
  @Tool({ description: 'Answer at once.', returns: ToolResult })
  quick(): ToolResult {
    return { message: 'quick' };
  }

  @Tool({ description: 'Answer once the test says so.', returns: ToolResult })
  async held(): Promise<ToolResult> {
    await new Promise<void>((release) => (releaseHeld = release));
    return { message: 'held' };
  }
}

/** Ends the call `held` is in, once it has started. */
let releaseHeld: (() => void) | undefined;

const KEEP_ALIVE_MS = 1_000;

function callRequest(port: number, id: number, tool = 'quick'): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } });
  return (
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** One kept-alive connection read by hand: each answer in full (by its chunked end or its length), then what happened to the socket. */
class RawConnection {
  private received = '';
  private waiting: (() => void) | undefined;
  readonly closed: Promise<string>;

  constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.received += chunk;
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      socket.on('close', () => resolve('closed'));
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends one request; resolves with its answer's head and body, or with what ended the connection first. */
  async exchange(request: string): Promise<string> {
    this.received = '';
    this.socket.write(request);
    const complete = () => /\r\n0\r\n\r\n$/.test(this.received) || /content-length: (\d+)\r\n[\s\S]*\r\n\r\n/i.test(this.received) && this.bodyComplete();
    const answered = new Promise<string>((resolve) => {
      this.waiting = () => complete() && resolve(this.received);
    });
    return Promise.race([answered, this.closed.then((how) => `connection ended: ${how}`)]);
  }

  private bodyComplete(): boolean {
    const [head, body = ''] = this.received.split('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(head!)![1]);
    return Buffer.byteLength(body) >= length;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('idle keep-alive connections', () => {
  let http: HttpServerHandle;
  let port: number;

  beforeAll(async () => {
    const { logger } = recordingLogger();
    http = await serveHttp(buildServer({ name: 'kept', version: '1.0.0', toolsets: [KeptToolset], logger }), { port: 0, logger, keepAliveTimeoutMs: KEEP_ALIVE_MS });
    port = Number(new URL(http.origin).port);
  });
  afterAll(() => http.close());

  it('stays open past its advertised time for a client whose clock runs late, so its next POST is answered, not reset', async () => {
    const connection = await RawConnection.open(port);
    const first = await connection.exchange(callRequest(port, 1));
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    // Node's fetch counts the keep-alive time (advertised, or its own 4 s where an event stream's
    // answer says `Connection: keep-alive` and no time) in 499 ms ticks, which fall behind on a busy
    // event loop; a client that read the answer late counts from later still. Both send a while after it.
    await new Promise((resolve) => setTimeout(resolve, 2.3 * KEEP_ALIVE_MS));
    const second = await connection.exchange(callRequest(port, 2));
    expect(second).toMatch(/^HTTP\/1\.1 200/);
    expect(second).toContain('"structuredContent":{"message":"quick"}');
    connection.destroy();
  }, 30_000);

  it('still closes a connection nobody uses, once the grace has passed', async () => {
    const connection = await RawConnection.open(port);
    expect(await connection.exchange(callRequest(port, 1))).toMatch(/^HTTP\/1\.1 200/);
    const opened = Date.now();
    expect(await connection.closed).toBe('closed');
    // Held for the advertised time and as long again (timers never fire early, so this holds on any machine).
    expect(Date.now() - opened).toBeGreaterThanOrEqual(2 * KEEP_ALIVE_MS);
  }, 30_000);
});

describe('the drain with a quiet period of 0 (nothing in front of the server: the dev loop, a test)', () => {
  it('closes idle connections at once instead of at their keep-alive time, and answers the call in flight before it ends', async () => {
    const { logger } = recordingLogger();
    // Keep-alive and drain bounds far past the test's own timeout: an idle connection left to its
    // keep-alive time, or a drain that waits for it, fails the test instead of passing slowly.
    const long = 10 * 60_000;
    const http = await serveHttp(buildServer({ name: 'kept', version: '1.0.0', toolsets: [KeptToolset], logger }), {
      port: 0,
      logger,
      keepAliveTimeoutMs: long,
      drainTimeoutMs: long,
      drainQuietMs: 0,
    });
    const port = Number(new URL(http.origin).port);
    const idle = await RawConnection.open(port);
    const busy = await RawConnection.open(port);
    try {
      expect(await idle.exchange(callRequest(port, 1))).toMatch(/^HTTP\/1\.1 200/);
      const held = busy.exchange(callRequest(port, 2, 'held'));
      while (!releaseHeld) await new Promise((resolve) => setTimeout(resolve, 5));

      const closed = http.close();
      expect(await idle.closed).toBe('closed');
      releaseHeld();
      expect(await held).toContain('"structuredContent":{"message":"held"}');
      // Its head went out with keep-alive when the call began; the connection closes after the answer all the same.
      expect(await busy.closed).toBe('closed');
      await closed;
    } finally {
      // On a failure, so the server can close and Jest end.
      releaseHeld?.();
      idle.destroy();
      busy.destroy();
      await http.close();
    }
  }, 30_000);
});
