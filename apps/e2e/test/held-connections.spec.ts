import { connect, type Socket } from 'node:net';
import { pollUntil } from '@toolsets/testing';
import { MCP_HEADERS, toolsCall } from './support/raw-http';
import { appMain, startServerCommand, type ServerProcess } from './support/server-process';

/**
 * Connections a hostile client holds open with unfinished bodies, on a process whose open-file
 * limit is the common default (1024): the connection cap must sit below that limit, or the
 * process runs out of files first and a normal caller meets silence instead of an answer.
 */
/** Longer than any answer takes on a busy machine; a call that waits this long met silence. */
const SILENCE_MS = 30_000;

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
      const response = await fetch(`${server.origin}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' }, body: toolsCall('hello', { name: 'Ada' }), signal: AbortSignal.timeout(SILENCE_MS) });
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
    // Served until the server has accepted enough of the held connections to reach its cap; then refused, never silent.
    const busy = await pollUntil(call, (answer) => answer.status !== 200, { deadlineMs: SILENCE_MS, what: 'a call while 1,100 connections are held' });
    expect({ status: busy.status, refusal: /Too many open connections; retry shortly/.test(busy.body) }).toEqual({ status: 503, refusal: true });
    // Once the held connections go (the server sees each close in its own time), the same call is served.
    for (const socket of held.splice(0)) socket.destroy();
    const served = await pollUntil(call, (answer) => answer.status !== 503, { deadlineMs: SILENCE_MS, what: 'a call once the held connections closed' });
    expect([served.status, served.body]).toEqual([200, expect.stringContaining('Hello, Ada!')]);
  }, 120_000);
});
