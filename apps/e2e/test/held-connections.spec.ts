import { connect, type Socket } from 'node:net';
import { MCP_HEADERS, toolsCall } from './support/raw-http';
import { appMain, startServerCommand, type ServerProcess } from './support/server-process';

/**
 * Connections a hostile client holds open with unfinished bodies, on a process whose open-file
 * limit is the common default (1024): the connection cap must sit below that limit, or the
 * process runs out of files first and a normal caller meets silence instead of an answer.
 */
describe('held connections on a process with a low open-file limit (hello app, ulimit -n 1024)', () => {
  let server: ServerProcess;
  const held: Socket[] = [];

  beforeAll(async () => {
    server = await startServerCommand(['sh', '-c', `ulimit -n 1024 && exec "${process.execPath}" "${appMain('hello-server')}"`]);
  }, 30_000);
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await server?.stop();
  });

  const hold = (port: number) =>
    new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        // A chunked body that never ends: one chunk, then nothing.
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n`);
        resolve();
      });
      socket.on('error', () => resolve());
      held.push(socket);
    });

  const call = async () => {
    const started = Date.now();
    try {
      const response = await fetch(`${server.origin}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }, body: toolsCall('hello', { name: 'Ada' }), signal: AbortSignal.timeout(10_000) });
      return { status: response.status, body: await response.text(), ms: Date.now() - started };
    } catch (error) {
      return { status: 0, body: String((error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).name), ms: Date.now() - started };
    }
  };

  it('says at startup that it holds fewer connections than MAX_CONNECTIONS, to fit the limit', () => {
    expect(server.stderr()).toContain("MAX_CONNECTIONS (1024) does not fit this process's open-file limit (1024, ulimit -n): at most 896 connections are held");
  });

  it('answers a normal call at once while 1,100 unfinished bodies are held: a 503 to retry, never silence', async () => {
    const port = Number(new URL(server.origin).port);
    for (let i = 0; i < 1_100; i += 100) await Promise.all(Array.from({ length: 100 }, () => hold(port)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const busy = await call();
    expect({ status: busy.status, refusal: /Too many open connections; retry shortly/.test(busy.body) }).toEqual({ status: 503, refusal: true });
    expect(busy.ms).toBeLessThan(5_000);
    // Once the held connections go, the same call is served.
    for (const socket of held.splice(0)) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const served = await call();
    expect([served.status, served.body]).toEqual([200, expect.stringContaining('Hello, Ada!')]);
  }, 30_000);
});
