import 'reflect-metadata';
import { buildServer, serveHttp, servingOptionsFromEnvironment, type HttpServerHandle, type ServerDefinition } from '../../src';
import { request as httpRequest } from 'node:http';
import { Agent, fetch } from 'undici';
import { callCorpus, MUTATION_NAMES, type CorpusRequest } from '../support/call-corpus';
import { recordingLogger } from '../support/connect';
import { CorpusToolset, KEEP_ALIVE_MS, MAKERS, MIRROR } from '../support/corpus-toolset';

/**
 * The corpus: 3,000 requests in `npm test`, which reach every mutation at least 20 times (asserted
 * below); `FAST_PATH_CORPUS=10000` runs the 10,000 the fast path was proven on (about 20 s alone):
 * `FAST_PATH_CORPUS=10000 npx jest -c libs/core/jest.config.cjs libs/core/test/transport/fast-path.spec.ts`.
 */
const CORPUS_SIZE = Number(process.env['FAST_PATH_CORPUS']) || 3_000;
const SEED = 20261204;
const IN_FLIGHT = 16;
/** A bound on a run that hangs, not a measure of speed: the differential takes about 20 s alone, minutes on a busy machine. */
const HUNG_MS = 900_000;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Headers left out of the comparison: those that vary per response and say nothing about the
 * answer, and the ETag the list cache adds to a list (its hash, which the SDK does not send).
 */
const VARYING = new Set(['date', 'keep-alive', 'connection', 'etag']);

/** A `: keepalive` comment on an event stream: how many fall inside one call depends on timing. */
const KEEP_ALIVE_FRAMES = /: keepalive\n\n/g;

/** What differs between two answers to one request by design: a sealed requestState (random nonce), a correlation id, the number of keepalives. */
function comparable(body: string): string {
  return body.replace(KEEP_ALIVE_FRAMES, '').replace(/"requestState":"[^"]*"/g, '"requestState":"<sealed>"').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
}

/** One server under test and the connection pool that reaches it, so a failed connection names its server. */
interface Target {
  name: string;
  origin: string;
  pool: Agent;
}

async function send(target: Target, request: CorpusRequest): Promise<Answer> {
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    const headers: [string, string][] = [...Object.entries(request.headers), ...request.repeated];
    response = await fetch(`${target.origin}/mcp`, { method: 'POST', headers, body: request.body, dispatcher: target.pool });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`The ${target.name} failed request ${request.label}: ${(error as Error).message} (${cause?.code ?? ''} ${cause?.message ?? ''})\n  body: ${request.body.slice(0, 300)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!VARYING.has(name)) headers[name] = value;
  return { status: response.status, headers, body: await response.text() };
}

/**
 * `request` over `node:http`, which sends each of its repeated headers as a line of its own (a
 * fetch joins them into one line before sending).
 */
function sendLines(origin: string, request: CorpusRequest): Promise<Answer> {
  const headers: Record<string, string | string[]> = { ...request.headers };
  for (const [name, value] of request.repeated) headers[name] = [...[headers[name] ?? []].flat(), value];
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${origin}/mcp`, { method: 'POST', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: {}, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(request.body);
  });
}

/** The definition with a count of the SDK servers it makes for requests: the fast path makes none. */
function counted(definition: ServerDefinition): { definition: ServerDefinition; made: () => number } {
  let made = 0;
  const serverFactory: ServerDefinition['serverFactory'] = (connection) => {
    const factory = definition.serverFactory(connection);
    return (context) => {
      made++;
      return factory(context);
    };
  };
  return { definition: { ...definition, serverFactory }, made: () => made };
}

describe('the HTTP fast path', () => {
  let fast: HttpServerHandle;
  let sdk: HttpServerHandle;
  let fastTarget: Target;
  let sdkTarget: Target;
  let fastServers: () => number;
  let sdkServers: () => number;

  beforeAll(async () => {
    const { logger } = recordingLogger();
    const definition = buildServer({ name: 'corpus', version: '1.0.0', toolsets: [CorpusToolset], logger, requestStateKey: 'k'.repeat(32) });
    const withFast = counted(definition);
    const withSdk = counted(definition);
    fast = await serveHttp(withFast.definition, { port: 0, logger, streamKeepAliveMs: KEEP_ALIVE_MS });
    // The reference: every request through the SDK, lists and ping included.
    sdk = await serveHttp(withSdk.definition, { port: 0, logger, streamKeepAliveMs: KEEP_ALIVE_MS, fastPath: false, cacheLists: false });
    fastServers = withFast.made;
    sdkServers = withSdk.made;
    fastTarget = { name: 'fast path', origin: fast.origin, pool: new Agent() };
    sdkTarget = { name: 'SDK path', origin: sdk.origin, pool: new Agent() };
  });
  afterAll(async () => {
    // The clients' idle connections go first, so each server's drain has nothing left to wait for.
    await Promise.all([fastTarget?.pool.close(), sdkTarget?.pool.close()]);
    await Promise.all([fast?.close(), sdk?.close()]);
  }, 60_000);

  it('reaches every mutation of the corpus at least 20 times, and every tool in both eras', () => {
    const labels = callCorpus(SEED, CORPUS_SIZE, MAKERS, MIRROR).map((request) => request.label);
    const reached = Object.fromEntries(MUTATION_NAMES.map((name) => [name, labels.filter((label) => label.split(', ').some((part) => part === name || part.endsWith(` ${name}`))).length]));
    expect(Object.entries(reached).filter(([, times]) => times < 20)).toEqual([]);
    for (const tool of Object.keys(MAKERS)) {
      expect(labels.some((label) => label.includes(` call ${tool}`) && !label.includes('2025'))).toBe(true);
      expect(labels.some((label) => label.includes(`2025 call ${tool}`))).toBe(true);
    }
  });

  it('answers the generated requests byte for byte as the SDK path does (lists and ping from their cache too), in status, headers and body', async () => {
    const corpus = callCorpus(SEED, CORPUS_SIZE, MAKERS, MIRROR);
    const differences: string[] = [];
    /** Answers to clean 2025-era `linger` calls that carried a keepalive, by path: both must have streamed while the call lasted. */
    const keptAlive = { calls: 0, fast: 0, sdk: 0 };
    let next = 0;
    const worker = async () => {
      while (next < corpus.length) {
        const request = corpus[next++]!;
        const [a, b] = await Promise.all([send(fastTarget, request), send(sdkTarget, request)]);
        if (request.clean && / 2025 call linger$/.test(request.label)) {
          keptAlive.calls++;
          if (a.body.includes(': keepalive')) keptAlive.fast++;
          if (b.body.includes(': keepalive')) keptAlive.sdk++;
        }
        const same = a.status === b.status && JSON.stringify(a.headers) === JSON.stringify(b.headers) && comparable(a.body) === comparable(b.body);
        if (!same && differences.length < 5) differences.push(`${request.label}\n  body: ${request.body.slice(0, 300)}\n  fast: ${a.status} ${JSON.stringify(a.headers)} ${a.body.slice(0, 400)}\n  sdk:  ${b.status} ${JSON.stringify(b.headers)} ${b.body.slice(0, 400)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(differences).toEqual([]);
    expect(keptAlive.calls).toBeGreaterThan(10);
    expect(keptAlive).toEqual({ calls: keptAlive.calls, fast: keptAlive.calls, sdk: keptAlive.calls });
    // The fast path took every well-formed call of both eras: its server made SDK servers only for the rest.
    const clean = corpus.filter((request) => request.clean).length;
    expect(clean).toBeGreaterThan(CORPUS_SIZE / 3);
    expect(fastServers()).toBeLessThanOrEqual(CORPUS_SIZE - clean);
    expect(sdkServers()).toBeGreaterThanOrEqual(clean);
  }, HUNG_MS);

  it('gives a tool a header sent twice as the SDK path does, in both eras: each set-cookie line on its own in `headers`, the lines joined by `header()`', async () => {
    const peeks = callCorpus(SEED, 400, MAKERS, MIRROR).filter((request) => request.clean && request.label.endsWith(' call peek'));
    const eras = [peeks.find((request) => !request.label.includes('2025'))!, peeks.find((request) => request.label.includes('2025'))!];
    const seen: string[] = [];
    for (const request of eras) {
      for (const name of ['set-cookie', 'cookie', 'x-corpus-tag']) {
        const twice: CorpusRequest = { ...request, repeated: [[name, 'a=1'], [name, 'b=2']] };
        const [a, b] = await Promise.all([sendLines(fast.origin, twice), sendLines(sdk.origin, twice)]);
        expect({ status: a.status, body: comparable(a.body) }).toEqual({ status: b.status, body: comparable(b.body) });
        seen.push(a.body);
      }
    }
    // The tool was reached and saw both lines: `set-cookie` listed line by line (so the last one kept) and joined by `header()`, `cookie` joined with `; `, others with `, `.
    const peeked = seen.map((body) => {
      const json = body.startsWith('event:') ? body.split('\n').find((line) => line.startsWith('data: '))!.slice(6) : body;
      return JSON.parse((JSON.parse(json) as { result: { structuredContent: { message: string } } }).result.structuredContent.message) as unknown;
    });
    const perEra = [
      { shown: { 'set-cookie': 'b=2' }, tag: null, cookie: 'a=1, b=2' },
      { shown: { cookie: 'a=1; b=2' }, tag: null, cookie: null },
      { shown: { 'x-corpus-tag': 'a=1, b=2' }, tag: 'a=1, b=2', cookie: null },
    ];
    expect(peeked).toEqual([...perEra, ...perEra]);
  });

  it("takes a 2025-era call that asks for progress, and streams its progress and log lines as the SDK path does", async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    const asking = (progressToken: unknown): CorpusRequest => ({
      label: `2025 call chatty with progress token ${JSON.stringify(progressToken)}`,
      headers,
      repeated: [],
      body: JSON.stringify({ jsonrpc: '2.0', id: 'progress-1', method: 'tools/call', params: { name: 'chatty', arguments: {}, _meta: { progressToken } } }),
      clean: false,
    });
    for (const token of ['p-1', 7, 1.5, null]) {
      const made = fastServers();
      const [a, b] = await Promise.all([send(fastTarget, asking(token)), send(sdkTarget, asking(token))]);
      expect({ status: a.status, headers: a.headers, body: comparable(a.body) }).toEqual({ status: b.status, headers: b.headers, body: comparable(b.body) });
      const valid = typeof token === 'string' || Number.isInteger(token);
      // A token the SDK takes: the fast path answers (no server made), the progress on the answer's stream; any other: the SDK's refusal, from its path.
      if (valid) expect(fastServers()).toBe(made);
      expect(a.body.includes(`"method":"notifications/progress","params":{"progressToken":${JSON.stringify(token)}`)).toBe(valid);
    }
  });

  it('is on by default and off with MCP_FAST_PATH=off, which sends every call through an SDK server made for it', async () => {
    const call: CorpusRequest = callCorpus(SEED, 200, MAKERS, MIRROR).find((request) => request.clean && request.label.includes(' call attach'))!;
    const made: Record<string, number> = {};
    for (const value of [undefined, 'on', 'off']) {
      const { logger } = recordingLogger();
      const withCount = counted(buildServer({ name: 'corpus', version: '1.0.0', toolsets: [CorpusToolset], logger }));
      const handle = await serveHttp(withCount.definition, { ...servingOptionsFromEnvironment(value === undefined ? {} : { MCP_FAST_PATH: value }), port: 0, logger, drainQuietMs: 1, drainTimeoutMs: 50 });
      const pool = new Agent();
      const answer = await send({ name: `server with MCP_FAST_PATH=${value}`, origin: handle.origin, pool }, call);
      await pool.close();
      await handle.close();
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('"structuredContent"');
      made[String(value)] = withCount.made();
    }
    expect(made).toEqual({ undefined: 0, on: 0, off: 1 });
    expect(() => servingOptionsFromEnvironment({ MCP_FAST_PATH: 'sometimes' })).toThrow('MCP_FAST_PATH must be on or off, got "sometimes".');
  }, 120_000);
});
