import { connect, type Socket } from 'node:net';
import { accountOf, httpClient } from '../support/clients';
import { rssMiB } from '../support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from '../support/server-process';

/** The bound this test holds the server to, with the default limits (64 MiB body budget, 1,024 connections). */
const RSS_BOUND_MIB = 320;
const MiB = 1024 * 1024;

/**
 * Opens `count` connections, a batch at a time, each sending `head` and then `body` (never the
 * request's end), and resolves once every one has been written or refused.
 */
async function flood(origin: string, count: number, head: string, body: Buffer | string, batch = 500): Promise<Socket[]> {
  const { port } = new URL(origin);
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, () => {
        const socket = connect(Number(port), '127.0.0.1');
        sockets.push(socket);
        socket.on('error', () => undefined);
        return new Promise<void>((done) => {
          socket.once('connect', () => {
            socket.write(head);
            socket.write(body, () => done());
          });
          socket.once('close', () => done());
        });
      }),
    );
  }
  return sockets;
}

/** Samples a process's RSS until `stop` resolves; returns the peak. */
function peakRss(pid: number, stop: Promise<unknown>): Promise<number> {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  return stop.then(
    () => (clearInterval(timer), Math.max(peak, rssMiB(pid))),
    (error) => (clearInterval(timer), Promise.reject(error)),
  );
}

describe('unfinished and trickled bodies (credential-demo app, default limits)', () => {
  let server: ServerProcess;
  let sockets: Socket[] = [];

  beforeEach(async () => {
    server = await startServerProcess(appMain('credential-demo-server'));
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets = [];
    expect(await server.stop()).toBe(0);
  });

  const normalCallSucceeds = async () => {
    const client = await httpClient('modern', `${server.origin}/mcp`, { 'x-demo-token': 'still-served' });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    await client.close();
    expect(result['structuredContent']).toMatchObject({ account: accountOf('still-served') });
  };

  it(`survives 4,000 connections that each send 1 MiB less one byte of a 1 MiB body, under ${RSS_BOUND_MIB} MiB, still serving`, async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${MiB}\r\n\r\n`;
    const body = Buffer.alloc(MiB - 1, 0x20);
    const attack = flood(server.origin, 4_000, head, body);
    const peak = await peakRss(server.child.pid!, attack);
    sockets = await attack;
    expect(server.child.exitCode).toBeNull();
    expect(peak).toBeLessThan(RSS_BOUND_MIB);
    await normalCallSucceeds();
    expect(server.stderr()).not.toContain('heap out of memory');
  });

  it(`survives 500 chunked bodies sent one byte per chunk, under ${RSS_BOUND_MIB} MiB, still serving`, async () => {
    const head = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunks = '1\r\n \r\n'.repeat(10_000);
    const attack = flood(server.origin, 500, head, chunks, 250);
    const peak = await peakRss(server.child.pid!, attack);
    sockets = await attack;
    expect(server.child.exitCode).toBeNull();
    expect(peak).toBeLessThan(RSS_BOUND_MIB);
    await normalCallSucceeds();
  });

  it('answers a connection over MAX_CONNECTIONS with 503 and Retry-After', async () => {
    await server.stop();
    server = await startServerProcess(appMain('credential-demo-server'), { MAX_CONNECTIONS: '2' });
    const { port } = new URL(server.origin);
    const held = [connect(Number(port), '127.0.0.1'), connect(Number(port), '127.0.0.1')];
    sockets = held;
    await Promise.all(held.map((socket) => new Promise((done) => socket.once('connect', done))));
    const response = await fetch(`${server.origin}/health`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: { code: -32000, message: 'Too many open connections; retry shortly.' } });
  });

  it('cuts a stalled body at REQUEST_TIMEOUT_MS with 408', async () => {
    await server.stop();
    server = await startServerProcess(appMain('credential-demo-server'), { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' });
    const { port } = new URL(server.origin);
    const socket = connect(Number(port), '127.0.0.1');
    sockets = [socket];
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const started = Date.now();
    await new Promise((done) => socket.once('close', done));
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
