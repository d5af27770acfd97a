import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A small OpenAPI 3.0 document: one operation whose answer is a Pet with the given fields. */
export function petsDocument(petFields: Record<string, { type: string }>, version = '1.0.0'): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version },
    servers: [{ url: 'https://pets.example/v1' }],
    paths: {
      '/pets/{id}': {
        get: {
          operationId: 'getPet',
          summary: 'One pet by id.',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '200': { description: 'The pet.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
    },
    components: { schemas: { Pet: { type: 'object', required: ['id', 'name'], properties: petFields } } },
  };
}

export interface DocumentServer {
  origin: string;
  /** What `/v1/openapi.json` serves next; the test changes it between refreshes. */
  document: Record<string, unknown>;
  /** The `authorization` header of every request to `/private/openapi.json`. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * An API document served on loopback, the way a live API serves its own: `/v1/openapi.json`
 * (mutable), `/v1/openapi.yaml`, `/private/openapi.json` (needs `authorization: Bearer s3cret`),
 * `/moved` (302 to the document, same origin), `/elsewhere` (302 to `otherOrigin`), `/missing`
 * (404), `/html` (a web page), `/huge` (2 MiB), `/slow` (headers, then nothing).
 */
export async function startDocumentServer(document: Record<string, unknown>, otherOrigin = 'http://localhost:9'): Promise<DocumentServer> {
  const state: DocumentServer = { origin: '', document, authorizations: [], close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    switch (req.url) {
      case '/v1/openapi.json':
        return json(state.document);
      case '/v1/openapi.yaml':
        return res.writeHead(200, { 'content-type': 'application/yaml' }).end(`openapi: 3.0.3\ninfo:\n  title: Pets\n  version: '1'\npaths: {}\n`);
      case '/private/openapi.json':
        state.authorizations.push(String(req.headers.authorization ?? ''));
        if (req.headers.authorization !== 'Bearer s3cret') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return json(state.document);
      case '/moved':
        return res.writeHead(302, { location: '/v1/openapi.json' }).end();
      case '/elsewhere':
        return res.writeHead(302, { location: `${otherOrigin}/v1/openapi.json` }).end();
      case '/html':
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>Sign in</body></html>');
      case '/huge':
        return res.writeHead(200, { 'content-type': 'application/json' }).end(`{"openapi":"3.0.3","x-pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
      case '/slow':
        return res.writeHead(200, { 'content-type': 'application/json' }).write('{');
      default:
        return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
