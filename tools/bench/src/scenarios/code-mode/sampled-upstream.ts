import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// openapi-sampler (Redocly's; what ReDoc shows as a response sample) makes an answer from an
// operation's documented response schema: examples where the document has them, else values of
// the right type and format. Written by hand this would be a schema walker of its own.
const { sample } = require('openapi-sampler') as { sample: (schema: unknown, options: object, document: unknown) => unknown };

interface Route {
  method: string;
  pattern: RegExp;
  body: string;
}

/** How many items a sampled array holds (the sampler makes one): list endpoints answer with several. */
const ITEMS = 5;

/**
 * A loopback upstream for a generated toolset: every operation of `document` answers with a sample
 * of its first 2xx JSON response (arrays of five items), made once. What the bench's generated
 * tools call instead of the real API, so results have the sizes the document promises.
 */
export async function startSampledUpstream(document: { paths?: Record<string, Record<string, unknown>> }): Promise<{ url: string; close(): Promise<void> }> {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(operations)) {
      const schema = successSchema(operation, document);
      if (!schema) continue;
      let body: unknown;
      try {
        body = widen(sample(schema, { skipReadOnly: false, skipWriteOnly: true, skipNonRequired: false, quiet: true }, document), 0);
      } catch {
        continue;
      }
      routes.push({ method: method.toUpperCase(), pattern, body: JSON.stringify(body) });
    }
  }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routes.find((candidate) => candidate.method === req.method && candidate.pattern.test(path));
    req.resume();
    if (!route) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Response = { $ref?: string; content?: Record<string, { schema?: unknown }> };

function successSchema(operation: unknown, document: unknown): unknown {
  const responses = (operation as { responses?: Record<string, Response> } | undefined)?.responses ?? {};
  const status = Object.keys(responses).find((code) => /^2\d\d$/.test(code));
  // A response may itself be a reference (`#/components/responses/…`, as Spotify's are).
  const response = status ? resolved(responses[status], document) : undefined;
  const content = response?.content;
  const json = content && Object.entries(content).find(([type]) => /json/.test(type));
  return json?.[1].schema;
}

function resolved(response: Response | undefined, document: unknown): Response | undefined {
  if (!response?.$ref?.startsWith('#/')) return response;
  let node: unknown = document;
  for (const part of response.$ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Response | undefined;
}

/** Arrays of one sampled item become ITEMS copies, three levels deep. */
function widen(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => widen(item, depth + 1));
    return depth < 3 && items.length === 1 ? Array.from({ length: ITEMS }, () => structuredClone(items[0])) : items;
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, widen(item, depth + 1)]));
  return value;
}
