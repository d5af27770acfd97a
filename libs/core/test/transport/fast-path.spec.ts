import 'reflect-metadata';
import { ArrayMaxSize, IsInt, IsOptional, Max, Min } from 'class-validator';
import {
  buildServer,
  embeddedResource,
  Field,
  RequestContext,
  resourceLink,
  serveHttp,
  servingOptionsFromEnvironment,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  withContent,
  type HttpServerHandle,
  type ResultWithContent,
  type ServerDefinition,
} from '../../src';
import { Agent, fetch } from 'undici';
import { callCorpus, MUTATION_NAMES, type ArgumentMakers, type CorpusRequest, type Random } from '../support/call-corpus';
import { recordingLogger } from '../support/connect';

class EchoArgs {
  @Field({ description: 'What to echo.' })
  text!: string;

  @Field()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  times?: number;
}

class EchoResult extends ToolResult {
  @Field()
  text!: string;

  @Field()
  times!: number;
}

class SumArgs {
  @Field(() => [Number])
  @ArrayMaxSize(8)
  numbers!: number[];
}

class SumResult extends ToolResult {
  @Field()
  total!: number;
}

class CityArgs {
  @Field()
  city!: string;
}

class Confirmation {
  @Field({ description: 'Go ahead?' })
  confirm!: boolean;
}

/** Every kind of answer a call can get: data, a declared error, an unexpected throw, extra content blocks, a question, a credential to hide. */
@Toolset({ name: 'corpus', description: 'Tools for the differential test.', credentialHeaders: ['x-corpus-key'] })
class CorpusToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Echo a text.', args: EchoArgs, returns: EchoResult, annotations: { readOnlyHint: true } })
  echo({ text, times = 1 }: EchoArgs): EchoResult {
    return { message: text.repeat(times), text, times };
  }

  @Tool({ description: 'Add numbers.', args: SumArgs, returns: SumResult, annotations: { readOnlyHint: true } })
  sum({ numbers }: SumArgs): SumResult {
    return { message: 'summed', total: numbers.reduce((a, b) => a + b, 0) };
  }

  @Tool({ description: 'Weather of a city; Atlantis is not found.', args: CityArgs, returns: [EchoResult, ToolError] })
  lookup({ city }: CityArgs): EchoResult | ToolError {
    if (city === 'Atlantis') return new ToolError('not_found', `No city called ${city}.`);
    return { message: `Sunny in ${city}`, text: city, times: 1 };
  }

  @Tool({ description: 'Fails unexpectedly.', returns: ToolResult })
  explode(): ToolResult {
    throw new Error('boom');
  }

  @Tool({ description: 'Attaches content blocks.', returns: ToolResult })
  attach(): ResultWithContent<ToolResult> {
    return withContent({ message: 'attached' }, embeddedResource({ uri: 'corpus://raw', mimeType: 'text/plain', text: 'raw' }), resourceLink({ uri: 'corpus://link', name: 'link', description: 'A link.' }));
  }

  @Tool({ description: 'Asks the user first.', returns: ToolResult, elicits: [Confirmation] })
  async ask(): Promise<ToolResult> {
    const answer = await this.context.elicit('Go ahead?', Confirmation);
    return { message: answer.action };
  }

  @Tool({ description: 'Logs twice and reports progress (sent only where the client asked), quoting the caller key.', returns: ToolResult })
  async chatty(): Promise<ToolResult> {
    await this.context.log('info', { step: 1, key: this.context.hasCredential('x-corpus-key') ? this.context.credential('x-corpus-key') : 'none' });
    await this.context.progress(1, 2, 'half way');
    await this.context.log('debug', 'done');
    return { message: 'chatted' };
  }

  @Tool({ description: 'Quotes the caller key, which is hidden.', returns: ToolResult })
  secret(): ToolResult {
    return { message: `key=${this.context.credential('x-corpus-key')}` };
  }
}

const MAKERS: ArgumentMakers = {
  echo: (r: Random) => ({ text: r.text(r.chance(0.1) ? 400 : 20), ...(r.chance(0.5) && { times: r.pick<unknown>([1, 3, 5, 0, 9, 1.5, '2']) }), ...(r.chance(0.1) && { extra: true }) }),
  sum: (r: Random) => ({ numbers: Array.from({ length: r.int(0, 10) }, () => (r.chance(0.9) ? r.int(-1e6, 1e6) / 8 : 'x')) }),
  lookup: (r: Random) => (r.chance(0.2) ? { city: 'Atlantis' } : r.chance(0.1) ? {} : { city: r.text(12) }),
  explode: () => ({}),
  attach: () => ({}),
  ask: () => ({}),
  secret: () => ({}),
  chatty: () => ({}),
};

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

/** What differs between two answers to one request by design: a sealed requestState (random nonce) and a correlation id. */
function comparable(body: string): string {
  return body.replace(/"requestState":"[^"]*"/g, '"requestState":"<sealed>"').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
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
    response = await fetch(`${target.origin}/mcp`, { method: 'POST', headers: request.headers, body: request.body, dispatcher: target.pool });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`The ${target.name} failed request ${request.label}: ${(error as Error).message} (${cause?.code ?? ''} ${cause?.message ?? ''})\n  body: ${request.body.slice(0, 300)}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!VARYING.has(name)) headers[name] = value;
  return { status: response.status, headers, body: await response.text() };
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
    fast = await serveHttp(withFast.definition, { port: 0, logger });
    // The reference: every request through the SDK, lists and ping included.
    sdk = await serveHttp(withSdk.definition, { port: 0, logger, fastPath: false, cacheLists: false });
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
    const labels = callCorpus(SEED, CORPUS_SIZE, MAKERS).map((request) => request.label);
    const reached = Object.fromEntries(MUTATION_NAMES.map((name) => [name, labels.filter((label) => label.split(', ').some((part) => part === name || part.endsWith(` ${name}`))).length]));
    expect(Object.entries(reached).filter(([, times]) => times < 20)).toEqual([]);
    for (const tool of Object.keys(MAKERS)) {
      expect(labels.some((label) => label.includes(` call ${tool}`) && !label.includes('2025'))).toBe(true);
      expect(labels.some((label) => label.includes(`2025 call ${tool}`))).toBe(true);
    }
  });

  it('answers the generated requests byte for byte as the SDK path does (lists and ping from their cache too), in status, headers and body', async () => {
    const corpus = callCorpus(SEED, CORPUS_SIZE, MAKERS);
    const differences: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < corpus.length) {
        const request = corpus[next++]!;
        const [a, b] = await Promise.all([send(fastTarget, request), send(sdkTarget, request)]);
        const same = a.status === b.status && JSON.stringify(a.headers) === JSON.stringify(b.headers) && comparable(a.body) === comparable(b.body);
        if (!same && differences.length < 5) differences.push(`${request.label}\n  body: ${request.body.slice(0, 300)}\n  fast: ${a.status} ${JSON.stringify(a.headers)} ${a.body.slice(0, 400)}\n  sdk:  ${b.status} ${JSON.stringify(b.headers)} ${b.body.slice(0, 400)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(differences).toEqual([]);
    // The fast path took every well-formed call of both eras: its server made SDK servers only for the rest.
    const clean = corpus.filter((request) => request.clean).length;
    expect(clean).toBeGreaterThan(CORPUS_SIZE / 3);
    expect(fastServers()).toBeLessThanOrEqual(CORPUS_SIZE - clean);
    expect(sdkServers()).toBeGreaterThanOrEqual(clean);
  }, HUNG_MS);

  it('is on by default and off with MCP_FAST_PATH=off, which sends every call through an SDK server made for it', async () => {
    const call: CorpusRequest = callCorpus(SEED, 200, MAKERS).find((request) => request.clean && request.label.includes(' call echo'))!;
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
