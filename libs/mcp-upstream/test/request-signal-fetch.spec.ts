import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestSignalFetch } from '../src/request-signal-fetch';

describe('the upstream transport fetch: a signal of its own per request', () => {
  let server: Server;
  let origin: string;
  /** Streams opened on /stream, to end from the test. */
  const streams: { end(): void }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        streams.push(res);
        return;
      }
      if (req.url === '/accepted') {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const stream of streams) stream.end();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('leaves no listener on the shared signal once each answer has been read, however many requests it served', async () => {
    const shared = new AbortController();
    const fetchWith = requestSignalFetch();
    for (let i = 0; i < 50; i++) {
      const response = await fetchWith(`${origin}/json`, { signal: shared.signal });
      expect(await response.json()).toEqual({ ok: true });
      // A notification's 202, whose empty body the SDK's transport reads.
      const accepted = await fetchWith(`${origin}/accepted`, { method: 'POST', signal: shared.signal });
      expect([accepted.status, await accepted.text()]).toEqual([202, '']);
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('keeps a streaming answer abortable by the shared signal while it is read, and lets go when the reader cancels it', async () => {
    const shared = new AbortController();
    const fetchWith = requestSignalFetch();
    const first = await fetchWith(`${origin}/stream`, { signal: shared.signal });
    const second = await fetchWith(`${origin}/stream`, { signal: shared.signal });
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(2);
    const reader = first.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    await second.body!.cancel();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    // The transport closes: the open stream's read ends with the shared signal's reason.
    shared.abort(new Error('transport closed'));
    await expect(reader.read()).rejects.toThrow();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('refuses at once when the shared signal is already aborted', async () => {
    const shared = new AbortController();
    shared.abort(new Error('closed before'));
    await expect(requestSignalFetch()(`${origin}/json`, { signal: shared.signal })).rejects.toThrow('closed before');
  });
});
