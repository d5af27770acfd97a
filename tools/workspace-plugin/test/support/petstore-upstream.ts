import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A petstore upstream on loopback, for generated toolsets to call: `/v2/pet/7` has an undeclared
 * field, `/v2/pet/13` breaks the document (`name` is a number), `/v2/pet/9` answers an HTML page, a POST to `/v2/store/order` echoes the order with id 1001, anything else is a 404. It records
 * the `api_key` header of every request.
 */
export function startPetstoreUpstream(): Promise<{ server: Server; origin: string; keys: string[] }> {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers['api_key'] ?? ''));
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.url === '/v2/pet/7') return json(200, { id: 7, name: 'Rex', photoUrls: [], status: 'available', internal: 'undeclared' });
    if (req.url === '/v2/pet/9') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    if (req.url === '/v2/pet/13') return json(200, { id: 13, name: 42, photoUrls: [] });
    if (req.url === '/v2/store/order' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => json(200, { ...JSON.parse(body || '{}'), id: 1001 }));
      return;
    }
    json(404, { code: 1, type: 'error', message: 'Pet not found' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, keys })));
}
