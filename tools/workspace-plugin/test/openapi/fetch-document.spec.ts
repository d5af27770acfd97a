import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fetchDocument, sourceHeadersFrom } from '../../src/openapi/fetch-document';

const until = async (done: () => boolean, stepMs: number) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, stepMs));
};
import { petsDocument, startDocumentServer, type DocumentServer } from '../support/document-server';

describe('fetching an OpenAPI document from its URL', () => {
  let api: DocumentServer;
  let other: DocumentServer;

  beforeAll(async () => {
    other = await startDocumentServer(petsDocument({ id: { type: 'integer' } }));
    api = await startDocumentServer(petsDocument({ id: { type: 'integer' }, name: { type: 'string' } }), other.origin);
  });
  afterAll(async () => {
    await api?.close();
    await other?.close();
  });

  it('reads a JSON or YAML document, with its text', async () => {
    const json = await fetchDocument(`${api.origin}/v1/openapi.json`);
    expect(json.document).toEqual(api.document);
    expect(JSON.parse(json.text)).toEqual(api.document);
    expect((await fetchDocument(`${api.origin}/v1/openapi.yaml`)).document).toEqual({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} });
  });

  it('follows a redirect within the origin, and refuses one to another origin, naming it', async () => {
    expect((await fetchDocument(`${api.origin}/moved`)).document).toEqual(api.document);
    await expect(fetchDocument(`${api.origin}/elsewhere`)).rejects.toThrow(
      `Could not use the OpenAPI document at ${api.origin}/elsewhere: it redirects (302) to another origin, ${other.origin}, which is not followed.`,
    );
  });

  it('refuses a non-2xx answer or a body that is not an OpenAPI document, naming the URL and the status', async () => {
    await expect(fetchDocument(`${api.origin}/missing`)).rejects.toThrow(`Could not use the OpenAPI document at ${api.origin}/missing: the server answered 404 Not Found.`);
    await expect(fetchDocument(`${api.origin}/html`)).rejects.toThrow(`${api.origin}/html: the answer (200) is not an OpenAPI document: it has no "openapi" or "swagger" version (it starts with "<!doctype html><html><body>Sign in</body")`);
    await expect(fetchDocument('ftp://example.com/openapi.json')).rejects.toThrow('only http and https URLs are fetched, not ftp:');
    const closed = await startDocumentServer({});
    await closed.close();
    await expect(fetchDocument(`${closed.origin}/openapi.json`)).rejects.toThrow(`Could not use the OpenAPI document at ${closed.origin}/openapi.json: the request failed (ECONNREFUSED).`);
  });

  it('stops at the size cap and at the deadline', async () => {
    await expect(fetchDocument(`${api.origin}/huge`, {}, { maxBytes: 1024 * 1024 })).rejects.toThrow(/over the 1048576-byte cap|passed the 1048576-byte cap/);
    const started = Date.now();
    await expect(fetchDocument(`${api.origin}/slow`, {}, { timeoutMs: 300 })).rejects.toThrow(`Could not use the OpenAPI document at ${api.origin}/slow: no complete answer within 300 ms.`);
    // Without the deadline this waits for the slow answer; a bound any machine meets.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('sends the recorded headers with values from the environment, and names a missing variable', async () => {
    const source = { source: `${api.origin}/private/openapi.json`, sourceHeaders: { authorization: 'PETS_SPEC_TOKEN' } };
    expect(() => sourceHeadersFrom(source, {})).toThrow('its authorization header comes from the environment variable PETS_SPEC_TOKEN, which is not set.');
    const headers = sourceHeadersFrom(source, { PETS_SPEC_TOKEN: 'Bearer s3cret' });
    expect((await fetchDocument(source.source, headers)).document).toEqual(api.document);
    await expect(fetchDocument(source.source)).rejects.toThrow('the server answered 401 Unauthorized.');
    expect(api.authorizations).toEqual(['Bearer s3cret', '']);
  });

  it('asks once more on a fresh connection when the server closed the kept-alive one as it was reused (the refresh e2e met it under load)', async () => {
    // A server that answers the first request of each connection, keeps it alive, and drops the
    // connection without a word on its second request: what a keep-alive timeout does at that moment.
    const body = JSON.stringify(api.document);
    const requests: number[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      let served = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        served++;
        requests.push(served);
        if (served > 1) return void socket.destroy();
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
    try {
      expect((await fetchDocument(url)).document).toEqual(api.document);
      // The connection is back in the pool once the answer is read: the next fetch, a moment later (as the
      // refresh's are, seconds apart), goes out on it, and the server drops it: asked again, answered.
      await until(() => requests.length === 1 && sockets.size === 1, 50);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await fetchDocument(url)).document).toEqual(api.document);
      expect(requests).toEqual([1, 2, 1]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('asks up to three times in all when connections keep closing before any answer, then says so', async () => {
    // A server that drops the first `drops` requests it gets without a word, then answers.
    const body = JSON.stringify(api.document);
    let seen = 0;
    let drops = 2;
    const server = createServer((socket) => {
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        if (++seen <= drops) return void socket.destroy();
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
    try {
      expect((await fetchDocument(url)).document).toEqual(api.document);
      expect(seen).toBe(3);
      [seen, drops] = [0, 3];
      await expect(fetchDocument(url)).rejects.toThrow(`Could not use the OpenAPI document at ${url}: the request failed (`);
      expect(seen).toBe(3);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
