import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeHttpFetch, type NodeHttpFetch } from '../src/node-http-fetch';

const ANSWER = '{"result":{"text":"café"},"jsonrpc":"2.0","id":7}';
const PROGRESS = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}';
const PRIMING = 'id: 1\ndata: \n\n';
const LARGE = JSON.stringify({ result: { text: 'x'.repeat(4 * 2 ** 20) }, jsonrpc: '2.0', id: 8 });
/** What the upstream writes on /sse/<name>, chunk by chunk. */
const SSE_ANSWERS: Record<string, (string | Buffer)[]> = {
  // The answer cut inside its é (bytes 51 and 52), after a priming event, with CRLF line ends.
  answer: [PRIMING, Buffer.from(`event: message\r\nid: 2\r\ndata: ${ANSWER}\r\n\r\n`).subarray(0, 52), Buffer.from(`event: message\r\nid: 2\r\ndata: ${ANSWER}\r\n\r\n`).subarray(52)],
  progress: [PRIMING, `data: ${PROGRESS}\n\n`, 'open'],
  unanswered: [PRIMING],
  garbage: ['data: not json\n\n'],
  lingering: [`data: ${ANSWER}\n\n`, 'open'],
  // 4 MiB of answer in 4 KiB writes.
  large: `data: ${LARGE}\n\n`.match(/[^]{1,4096}/g)!,
  silent: [PRIMING, 'open'],
};
const post = { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":7,"method":"tools/call"}' };

describe("an HTTP upstream's fetch over node:http", () => {
  let server: Server;
  let origin: string;
  let http: NodeHttpFetch;
  /** What the server saw of each request: method, path, headers and body. */
  const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
  /** Streams opened on /stream, written and ended from the test. */
  const streams: ServerResponse[] = [];
  /** What the fallback was asked to do. */
  const handedOver: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        if (req.url === '/stream') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
          res.write('data: first\n\n');
          streams.push(res);
        } else if (req.url?.startsWith('/sse/')) {
          // An event stream answering a POST: each of SSE_ANSWERS[name] written as a chunk of its own, then the end ('open': left open).
          res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-2' });
          const chunks = SSE_ANSWERS[req.url.slice(5)]!;
          for (const chunk of chunks) if (chunk !== 'open') res.write(chunk);
          if (chunks.at(-1) === 'open') streams.push(res);
          else res.end();
        } else if (req.url === '/hang') streams.push(res);
        else if (req.url === '/accepted') res.writeHead(202).end();
        else if (req.url === '/moved') res.writeHead(307, { location: '/json' }).end();
        else if (req.url === '/cookies') res.writeHead(200, [['set-cookie', 'a=1'], ['set-cookie', 'b=2']]).end('ok');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    http = nodeHttpFetch(async (input, init) => {
      handedOver.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    });
  });
  afterAll(async () => {
    for (const stream of streams) stream.end();
    http.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the method, headers and body it is given, and answers a Response the SDK reads as from fetch', async () => {
    const response = await http.fetch(`${origin}/json`, {
      method: 'POST',
      headers: new Headers({ 'Content-Type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }),
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect([response.ok, response.status, response.headers.get('content-type')]).toEqual([true, 200, 'application/json']);
    expect(await response.json()).toEqual({ echoed: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    const request = seen.at(-1)!;
    expect([request.method, request.headers['content-type'], request.headers['mcp-protocol-version'], request.headers['content-length']]).toEqual(['POST', 'application/json', '2025-11-25', '40']);
    // Header records and pairs too, as the SDK's requestInit may give them.
    await (await http.fetch(`${origin}/json`, { headers: { authorization: 'Bearer t' } })).text();
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer t');
    await (await http.fetch(new URL(`${origin}/json`), { headers: [['x-a', '1']] })).text();
    expect(seen.at(-1)!.headers['x-a']).toBe('1');
  });

  it("answers a 202 with an empty body and keeps repeated headers apart", async () => {
    const accepted = await http.fetch(`${origin}/accepted`, { method: 'POST', body: '{}' });
    expect([accepted.status, await accepted.text()]).toEqual([202, '']);
    const cookies = await http.fetch(`${origin}/cookies`);
    expect(cookies.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await cookies.text()).toBe('ok');
  });

  it('streams an event stream as it comes, and ends it with the signal’s reason when the transport closes', async () => {
    const shared = new AbortController();
    const response = await http.fetch(`${origin}/stream`, { signal: shared.signal, headers: { accept: 'text/event-stream' } });
    expect(response.headers.get('mcp-session-id')).toBe('s-1');
    const reader = response.body!.getReader();
    // The first event is readable while the stream stays open.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    streams.at(-1)!.write('data: second\n\n');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: second\n\n');
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    shared.abort(new Error('transport closed'));
    await expect(reader.read()).rejects.toThrow('transport closed');
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no listener on the shared signal once each answer has been read or cancelled, however many it served', async () => {
    const shared = new AbortController();
    for (let i = 0; i < 50; i++) {
      await (await http.fetch(`${origin}/json`, { method: 'POST', body: String(i), signal: shared.signal })).json();
      await (await http.fetch(`${origin}/accepted`, { method: 'POST', body: '{}', signal: shared.signal })).text();
    }
    const stream = await http.fetch(`${origin}/stream`, { signal: shared.signal });
    await stream.body!.cancel();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('rejects with the signal’s reason when aborted before the answer, and as fetch does when nothing listens', async () => {
    const aborted = new AbortController();
    aborted.abort(new Error('cancelled by the caller'));
    await expect(http.fetch(`${origin}/json`, { signal: aborted.signal })).rejects.toThrow('cancelled by the caller');
    // Aborted while the upstream has not answered yet: the request is dropped, the listener with it.
    const waiting = new AbortController();
    const pending = http.fetch(`${origin}/hang`, { signal: waiting.signal });
    while (!seen.some((request) => request.url === '/hang')) await new Promise((resolve) => setTimeout(resolve, 5));
    waiting.abort(new Error('timed out'));
    await expect(pending).rejects.toThrow('timed out');
    expect(getEventListeners(waiting.signal, 'abort')).toHaveLength(0);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await http.fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it("hands the transport an event stream that carried only the request's answer as that answer's JSON", async () => {
    const response = await http.fetch(`${origin}/sse/answer`, post);
    expect([response.status, response.headers.get('content-type'), response.headers.get('mcp-session-id')]).toEqual([200, 'application/json', 's-2']);
    expect(await response.json()).toEqual(JSON.parse(ANSWER));
  });

  it('reads a long answer in many chunks as one event', async () => {
    const response = await http.fetch(`${origin}/sse/large`, post);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(LARGE);
  });

  it('hands on as it comes an event stream that carries anything before its answer, from its first byte', async () => {
    const response = await http.fetch(`${origin}/sse/progress`, post);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The progress event is readable while the upstream has not answered yet.
    let read = '';
    while (!read.includes(PROGRESS)) read += decoder.decode((await reader.read()).value);
    expect(read).toBe(`${PRIMING}data: ${PROGRESS}\n\n`);
    streams.at(-1)!.end(`data: ${ANSWER}\n\n`);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) read += decoder.decode(chunk.value);
    expect(read).toBe(`${PRIMING}data: ${PROGRESS}\n\ndata: ${ANSWER}\n\n`);
  });

  it('hands on the answer at once where the upstream keeps the stream open after it, and drops the stream when the transport closes', async () => {
    const shared = new AbortController();
    const response = await http.fetch(`${origin}/sse/lingering`, { ...post, signal: shared.signal });
    expect([response.headers.get('content-type'), await response.json()]).toEqual(['application/json', JSON.parse(ANSWER)]);
    const lingering = streams.at(-1)!;
    expect(lingering.writableEnded).toBe(false);
    shared.abort(new Error('transport closed'));
    await new Promise((resolve) => lingering.once('close', resolve));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it.each(['unanswered', 'garbage'])('hands on a %s event stream byte for byte, for the transport to judge', async (name) => {
    const response = await http.fetch(`${origin}/sse/${name}`, post);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(SSE_ANSWERS[name]!.join(''));
  });

  it('rejects with the signal’s reason when aborted while an event stream has sent nothing yet, leaving no listener', async () => {
    const waiting = new AbortController();
    const pending = http.fetch(`${origin}/sse/silent`, { ...post, signal: waiting.signal });
    const opened = streams.length;
    while (streams.length === opened) await new Promise((resolve) => setTimeout(resolve, 5));
    waiting.abort(new Error('cancelled by the caller'));
    await expect(pending).rejects.toThrow('cancelled by the caller');
    expect(getEventListeners(waiting.signal, 'abort')).toHaveLength(0);
  });

  it('hands a redirect and a body that is not a string to the platform fetch, which follows and encodes them', async () => {
    handedOver.length = 0;
    const moved = await http.fetch(`${origin}/moved`, { method: 'POST', body: 'x' });
    expect(await moved.json()).toEqual({ echoed: 'x' });
    const form = await http.fetch(`${origin}/json`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) });
    expect(await form.json()).toEqual({ echoed: 'grant_type=client_credentials' });
    expect(handedOver).toEqual([`POST ${origin}/moved`, `POST ${origin}/json`]);
  });
});
