import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// openapi-sampler (Redocly's; what ReDoc shows as a response sample) makes an answer from an
// operation's documented response schema: examples where the document has them, else values of
// the right type and format. Written by hand this would be a schema walker of its own.
const { sample } = require('openapi-sampler') as { sample: (schema: unknown, options: object, document: unknown) => unknown };
// The sampler writes "string" where a pattern or format asks for more, and null for an item it cut
// at a recursive reference: each answer is checked against its schema (Ajv, as strict clients do)
// and what breaks it is made again (randexp for a pattern), so answers hold to what the document
// says, as a real API's do. What the document's own examples break stays broken: that is the document's.
const Ajv = require('ajv') as new (options: object) => { compile(schema: unknown): ((data: unknown) => boolean) & { errors?: AjvError[] | null } ; addSchema(schema: unknown, key: string): void };
const addFormats = require('ajv-formats') as (ajv: unknown) => void;
const RandExp = require('randexp') as new (pattern: RegExp) => { max: number; randInt: (low: number, high: number) => number; gen(): string };

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

interface Route {
  method: string;
  pattern: RegExp;
  status: number;
  /** Empty for an operation whose success has no JSON body (a 204, a stop or delete). */
  body: string;
}

/** How many strings randexp makes for a pattern before the sampler's placeholder is left as it is. */
const PATTERN_TRIES = 50;

/**
 * The same answers on every run (randexp's choices come from this, not Math.random): a bench that
 * measures which programs ran must not measure the dice. mulberry32, seeded afresh for each upstream.
 */
function seededRandom(): () => number {
  let state = 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  const check = checker(document);
  const random = seededRandom();
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(operations)) {
      const success = successOf(operation, document);
      if (!success) continue;
      const { status, schema } = success;
      if (schema === undefined) {
        // A success without a JSON body (204 No Content) answers with its status and nothing; a redirect has no body to sample.
        if (status < 300) routes.push({ method: method.toUpperCase(), pattern, status, body: '' });
        continue;
      }
      let body: unknown;
      try {
        body = conform(widen(sample(schema, { skipReadOnly: false, skipWriteOnly: true, skipNonRequired: false, quiet: true }, document), 0), check(schema), random);
      } catch {
        continue;
      }
      routes.push({ method: method.toUpperCase(), pattern, status, body: JSON.stringify(body) });
    }
  }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routes.find((candidate) => candidate.method === req.method && candidate.pattern.test(path));
    req.resume();
    if (!route) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
    if (route.body === '') return void res.writeHead(route.status).end();
    res.writeHead(route.status, { 'content-type': 'application/json' }).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Response = { $ref?: string; content?: Record<string, { schema?: unknown }> };

/** An operation's first 2xx (else 3xx) status, and the schema of its JSON body when it has one. */
function successOf(operation: unknown, document: unknown): { status: number; schema?: unknown } | undefined {
  const responses = (operation as { responses?: Record<string, Response> } | undefined)?.responses ?? {};
  const codes = Object.keys(responses);
  const status = codes.find((code) => /^2\d\d$/.test(code)) ?? codes.find((code) => /^3\d\d$/.test(code));
  if (!status) return undefined;
  // A response may itself be a reference (`#/components/responses/…`, as Spotify's are).
  const content = resolved(responses[status], document)?.content;
  const json = content && Object.entries(content).find(([type]) => /json/.test(type));
  return { status: Number(status), ...(json?.[1].schema !== undefined && { schema: json[1].schema }) };
}

function resolved(response: Response | undefined, document: unknown): Response | undefined {
  if (!response?.$ref?.startsWith('#/')) return response;
  let node: unknown = document;
  for (const part of response.$ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Response | undefined;
}

/**
 * Arrays of one sampled item become ITEMS copies, three levels deep. An empty item is where the
 * sampler cut a recursive reference (a commit's `parents`): it goes, as an API's answer never
 * holds one there.
 */
function widen(value: unknown, depth: number): unknown {
  if (Array.isArray(value)) {
    const items = value.filter((item) => !cut(item)).map((item) => widen(item, depth + 1));
    // JSON copies: under Jest, structuredClone's objects come from another realm, and Ajv's uniqueItems took them for different.
    return depth < 3 && items.length === 1 ? Array.from({ length: ITEMS }, () => JSON.parse(JSON.stringify(items[0])) as unknown) : items;
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, widen(item, depth + 1)]));
  return value;
}

/** What the sampler leaves where it cut a recursive reference: nothing, null or `{}`. */
function cut(item: unknown): boolean {
  return item === null || item === undefined || (typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 0);
}

const FORMAT_SAMPLES: Record<string, () => string> = {
  uuid: () => '8f2c1e4a-5b6d-4c7e-9f80-1a2b3c4d5e6f',
  'date-time': () => '2026-01-02T03:04:05Z',
  date: () => '2026-01-02',
  email: () => 'someone@example.com',
  uri: () => 'https://example.com/a',
  ipv4: () => '203.0.113.7',
  ipv6: () => '2001:db8::7',
  hostname: () => 'host.example.com',
};

/** A validator for the response schemas of `document` (OpenAPI 3.0 and 3.1 dialects, leniently), or none when Ajv cannot read one. */
function checker(document: unknown) {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(dialect(document), 'document');
  return (schema: unknown) => {
    try {
      return ajv.compile(rebase(dialect(schema)));
    } catch {
      return undefined;
    }
  };
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema says it, throughout (Ajv refuses `nullable` without a `type`). */
function dialect(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dialect);
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, dialect(item)])) as Record<string, unknown>;
  if (!('nullable' in out)) return out;
  const nullable = out['nullable'] === true;
  delete out['nullable'];
  if (!nullable) return out;
  if (typeof out['type'] === 'string') return { ...out, type: [out['type'], 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/** `#/components/…` references pointed at the document registered as `document`. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' && item.startsWith('#/') ? `document${item}` : rebase(item)]));
}

/** `value` with what breaks `validate` made again: a string its pattern or format asks for, a null item dropped; a few rounds. */
function conform(value: unknown, validate: (((data: unknown) => boolean) & { errors?: AjvError[] | null }) | undefined, random: () => number): unknown {
  if (!validate) return value;
  for (let round = 0; round < 8 && !validate(value); round++) {
    let changed = false;
    for (const error of validate.errors ?? []) {
      const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      const key = path.pop();
      const parent = path.reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], value) as Record<string, unknown> | unknown[] | undefined;
      if (key === undefined || !parent) continue;
      const at = parent as Record<string, unknown>;
      // Only the sampler's placeholder is made again: a value taken from the document's own example stays as the document wrote it.
      if (error.keyword === 'pattern' && at[key] === 'string') {
        const pattern = new RegExp(String(error.params['pattern']), 'u');
        const made = new RandExp(pattern);
        made.max = 4;
        made.randInt = (low, high) => low + Math.floor(random() * (high - low + 1));
        // randexp ignores lookaheads and reads a lazy `{7,}?` as optional: what it makes may break the pattern, so it
        // tries again; when nothing it makes matches, the sample stays (a pattern nothing matches is the document's).
        const candidate = Array.from({ length: PATTERN_TRIES }, () => made.gen()).find((made) => pattern.test(made));
        if (candidate === undefined) continue;
        at[key] = candidate;
        changed = true;
      } else if (error.keyword === 'format' && at[key] === 'string' && FORMAT_SAMPLES[String(error.params['format'])]) {
        at[key] = FORMAT_SAMPLES[String(error.params['format'])]!();
        changed = true;
      } else if (error.keyword === 'type' && at[key] === null && Array.isArray(parent)) {
        parent.splice(Number(key), 1);
        changed = true;
      } else if (error.keyword === 'uniqueItems' && Array.isArray(at[key])) {
        // The copies widen made of one item: a list whose items must differ keeps one.
        at[key] = (at[key] as unknown[]).slice(0, 1);
        changed = true;
      } else if (error.keyword === 'required' && !Array.isArray(parent)) {
        // An object the sampler cut short at a recursive reference (a repository's `mainbranch`): left out; a parent that
        // required it is reported in the next round and goes the same way.
        delete at[key];
        changed = true;
      }
    }
    if (!changed) break;
  }
  return value;
}
