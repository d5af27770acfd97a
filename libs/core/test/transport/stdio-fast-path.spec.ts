import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY, type Server } from '@modelcontextprotocol/server';
import { buildServer, serveStdio, type ServerDefinition, type StdioConnectionHandle } from '../../src';
import { callCorpus, Random } from '../support/call-corpus';
import { recordingLogger } from '../support/connect';
import { CorpusToolset, MAKERS } from '../support/corpus-toolset';

type Era = 'modern' | 'legacy';

/**
 * The corpus: the HTTP differential's seeded requests (test/support/call-corpus.ts: valid and
 * invalid calls of both eras, every envelope, id and params mutation, other methods,
 * notifications, batches, lines that are no JSON-RPC at all) as lines on one stdio connection of
 * each era, 8 at a time, to a connection with the fast path and one without; an explicit
 * cancellation of a running call now and then.
 */
const CORPUS_SIZE = Number(process.env['STDIO_FAST_PATH_CORPUS']) || 2_000;
const SEED = 20261206;
/** A bound on a run that hangs, not a measure of speed. */
const HUNG_MS = 600_000;
const KEY = 'sekrit-stdio-key';
const MODERN = '2026-07-28';
const ENVELOPE = { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_INFO_META_KEY]: { name: 'corpus', version: '1.0.0' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
/** What the client answers the server's questions (`elicitation/create`) with. */
const ACCEPTED = { action: 'accept', content: { confirm: true } };

/** What differs between two answers to one request by design: a sealed requestState (random nonce), a correlation id. */
function comparable(line: string): string {
  return line.replace(/"requestState":"[^"]*"/g, '"requestState":"<sealed>"').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
}

/** The definition with a count of the `tools/call` requests its SDK instances dispatched (the fast path's calls never reach that dispatch). */
function counted(definition: ServerDefinition): { definition: ServerDefinition; dispatched: () => number } {
  let dispatched = 0;
  const serverFactory: ServerDefinition['serverFactory'] = (connection) => {
    const factory = definition.serverFactory(connection);
    return (context) => {
      const server = factory(context);
      // The handler the SDK's protocol layer looks up for each request it dispatches.
      const handlers = (server as unknown as { _requestHandlers: Map<string, (...args: unknown[]) => unknown> })._requestHandlers;
      const handler = handlers.get('tools/call')!;
      handlers.set('tools/call', (...args) => {
        dispatched++;
        return handler(...args);
      });
      return server as Server;
    };
  };
  return { definition: { ...definition, serverFactory }, dispatched: () => dispatched };
}

/** One client of one stdio connection: writes lines, reads every line the server writes, answers its questions. */
class Peer {
  readonly input = new PassThrough();
  readonly output = new PassThrough();
  /** Answers by their id's JSON, each line as the server wrote it. */
  readonly answers = new Map<string, string[]>();
  /** Notifications and the server's requests (their ids masked), as written. */
  readonly notices: string[] = [];
  readonly handle: StdioConnectionHandle;
  #waiters: (() => void)[] = [];

  constructor(
    readonly name: string,
    definition: ServerDefinition,
    fastPath: boolean,
  ) {
    this.handle = serveStdio(definition, { input: this.input, output: this.output, fastPath, environment: { X_CORPUS_KEY: KEY } });
    createInterface({ input: this.output }).on('line', (line) => this.read(line));
  }

  send(lines: readonly string[]): void {
    this.input.write(lines.map((line) => `${line}\n`).join(''));
  }

  /** Resolves once request `id` is answered, checked on every line read; fails naming it after `HUNG_MS`. */
  async answered(id: string | number): Promise<void> {
    const key = JSON.stringify(id);
    const hung = Date.now() + HUNG_MS;
    while (!this.answers.has(key)) {
      if (Date.now() > hung) throw new Error(`The ${this.name} never answered request ${key}.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, HUNG_MS);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private read(written: string): void {
    const line = comparable(written);
    const message = JSON.parse(line) as { id?: unknown; method?: string };
    if (message.method !== undefined && message.id !== undefined) {
      this.notices.push(line.replace(`"id":${JSON.stringify(message.id)}`, '"id":"<id>"'));
      const result = message.method === 'elicitation/create' ? { result: ACCEPTED } : { error: { code: -32601, message: 'Method not found' } };
      this.send([JSON.stringify({ jsonrpc: '2.0', id: message.id, ...result })]);
    } else if (message.method !== undefined) {
      this.notices.push(line);
    } else {
      const key = JSON.stringify(message.id ?? null);
      this.answers.set(key, [...(this.answers.get(key) ?? []), line]);
    }
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

/** The opening exchange of a client of `era`, answered before the corpus starts (2026-07-28: a probe, then a list, which pins the connection). */
function opening(era: Era): { lines: string[]; ids: string[] } {
  if (era === 'legacy') {
    return {
      lines: [
        JSON.stringify({ jsonrpc: '2.0', id: 'open-1', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'corpus', version: '1.0.0' } } }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ],
      ids: ['open-1'],
    };
  }
  return { lines: [JSON.stringify({ jsonrpc: '2.0', id: 'open-1', method: 'server/discover', params: { _meta: ENVELOPE } }), JSON.stringify({ jsonrpc: '2.0', id: 'open-2', method: 'tools/list', params: { _meta: ENVELOPE } })], ids: ['open-1', 'open-2'] };
}

/** A clean call of `name` with `args` on a connection of `era`. */
function call(era: Era, id: string, name: string, args: object): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(era === 'modern' && { _meta: ENVELOPE }) } });
}

/**
 * The corpus's bodies as lines for a connection of `era`, with whether each is a `tools/call`, and
 * a clean one of this era. A clean call of the other era becomes one of this era (its envelope
 * added or removed), a quarter of them with a progress token (a valid one leaves it clean); the
 * mutated ones stay as they are. Ids are made unique per line where they
 * are a string or a safe integer (other ids stay as the mutation made them). A second `initialize`
 * on a 2025-era connection is left out: it would change the client's capabilities under the calls
 * running beside it.
 */
function corpusLines(era: Era): { line: string; call: boolean; clean: boolean }[] {
  const lines: { line: string; call: boolean; clean: boolean }[] = [];
  const random = new Random(SEED + 1);
  for (const [n, request] of callCorpus(SEED, CORPUS_SIZE, MAKERS).entries()) {
    if (era === 'legacy' && / legacy initialize$/.test(request.label)) continue;
    let value: unknown;
    try {
      value = JSON.parse(request.body);
    } catch {
      lines.push({ line: request.body, call: false, clean: false });
      continue;
    }
    const message = value as { id?: unknown; method?: unknown; params?: { _meta?: unknown } };
    if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
      if (typeof message.id === 'string') message.id = `${message.id}#${n}`;
      else if (Number.isSafeInteger(message.id)) message.id = 1_000_000 + n;
    }
    let clean = /^#\d+ (2025 )?call \w+$/.test(request.label);
    if (clean) {
      // A quarter of them ask for the call's progress, with a token the SDK takes or one it refuses.
      const token = random.chance(0.25) ? random.pick<unknown>([`progress-${n}`, n, null, 1.5, {}]) : undefined;
      const meta = { ...(era === 'modern' && ENVELOPE), ...(token !== undefined && { progressToken: token }) };
      if (Object.keys(meta).length > 0) message.params!._meta = meta;
      else delete message.params!._meta;
      clean = token === undefined || typeof token === 'string' || Number.isInteger(token);
    }
    lines.push({ line: JSON.stringify(value), call: message?.method === 'tools/call', clean });
  }
  return lines;
}

describe.each<Era>(['legacy', 'modern'])('the stdio fast path, on a %s-era connection', (era) => {
  let fast: Peer;
  let sdk: Peer;
  let fastDispatched: () => number;
  let sdkDispatched: () => number;

  beforeAll(async () => {
    const { logger } = recordingLogger();
    const definition = buildServer({ name: 'corpus', version: '1.0.0', toolsets: [CorpusToolset], logger, requestStateKey: 'k'.repeat(32) });
    const withFast = counted(definition);
    const withSdk = counted(definition);
    fast = new Peer('fast path', withFast.definition, true);
    sdk = new Peer('SDK path', withSdk.definition, false);
    fastDispatched = withFast.dispatched;
    sdkDispatched = withSdk.dispatched;
    const { lines, ids } = opening(era);
    for (const peer of [fast, sdk]) peer.send(lines);
    await Promise.all(ids.flatMap((id) => [fast.answered(id), sdk.answered(id)]));
  });
  afterAll(async () => {
    await Promise.all([fast?.handle.close(), sdk?.handle.close()]);
  });

  it('answers every line of the corpus as the SDK path does, byte for byte, and takes every clean call', async () => {
    const corpus = corpusLines(era);
    const random = new Random(SEED);
    const cancelled: string[] = [];
    let batch = 0;
    for (let next = 0; next < corpus.length; batch++) {
      const lines = corpus.slice(next, (next += random.int(1, 8))).map((entry) => entry.line);
      // Now and then a call cancelled as soon as it is sent: neither path answers it.
      if (batch % 25 === 0) {
        const id = `cancelled-${batch}`;
        cancelled.push(id);
        lines.push(call(era, id, 'linger', {}), JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind', ...(era === 'modern' && { _meta: ENVELOPE }) } }));
      }
      // A request the SDK answers after it has read every line before it: the batch's synchronous answers are in.
      const barrier = `barrier-${batch}`;
      lines.push(era === 'legacy' ? JSON.stringify({ jsonrpc: '2.0', id: barrier, method: 'ping' }) : JSON.stringify({ jsonrpc: '2.0', id: barrier, method: 'tools/list', params: { _meta: ENVELOPE } }));
      fast.send(lines);
      sdk.send(lines);
      await Promise.all([fast.answered(barrier), sdk.answered(barrier)]);
    }
    // A last call that lingers as long as any: once both answered it, a cancelled one would have been answered too.
    for (const peer of [fast, sdk]) peer.send([call(era, 'last', 'linger', {})]);
    await Promise.all([fast.answered('last'), sdk.answered('last')]);
    // Calls still finishing (a question's round trip) settle within a few more round trips of both connections.
    const keys = (peer: Peer) => [...peer.answers.keys()].sort().join('\n');
    for (let round = 0; round < 200 && keys(fast) !== keys(sdk); round++) {
      const id = `settle-${round}`;
      const ping = era === 'legacy' ? JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) : JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: ENVELOPE } });
      for (const peer of [fast, sdk]) peer.send([ping]);
      await Promise.all([fast.answered(id), sdk.answered(id)]);
    }

    const differences: string[] = [];
    for (const key of new Set([...fast.answers.keys(), ...sdk.answers.keys()])) {
      const [a, b] = [fast.answers.get(key) ?? [], sdk.answers.get(key) ?? []].map((answers) => [...answers].sort().join('\n'));
      if (a !== b && differences.length < 5) differences.push(`id ${key}\n  fast: ${a.slice(0, 400)}\n  sdk:  ${b.slice(0, 400)}`);
    }
    expect(differences).toEqual([]);
    expect([...fast.notices].sort()).toEqual([...sdk.notices].sort());
    expect(cancelled.filter((id) => fast.answers.has(JSON.stringify(id)) || sdk.answers.has(JSON.stringify(id)))).toEqual([]);
    // The corpus reached what it is for: calls of every kind, log lines and questions, the key hidden.
    expect(fast.answers.size).toBeGreaterThan(corpus.length / 2);
    // A 2025-era connection sends log lines until a level is set, and asks its questions as requests to the client (answered here); a 2026-07-28 one logs only at a level its request names and answers input_required.
    if (era === 'legacy') expect(fast.notices.filter((line) => line.includes('"notifications/message"')).length).toBeGreaterThan(20);
    expect(fast.notices.some((line) => line.includes('"elicitation/create"'))).toBe(era === 'legacy');
    expect(fast.notices.filter((line) => line.includes('"notifications/progress"')).length).toBeGreaterThan(5);
    expect(JSON.stringify([...fast.answers.values()])).not.toContain(KEY);
    // Every clean call of the era took the fast path: the SDK dispatched only the others there.
    const calls = corpus.filter((entry) => entry.call).length;
    const clean = corpus.filter((entry) => entry.clean).length;
    expect(clean).toBeGreaterThan(corpus.length / 3);
    expect(fastDispatched()).toBeLessThanOrEqual(calls - clean);
    expect(sdkDispatched()).toBeGreaterThanOrEqual(clean + cancelled.length + 1);
  }, HUNG_MS);

  if (era === 'legacy') {
    it("sends a call's log lines at the level logging/setLevel set, as the SDK path does", async () => {
      const seen: Record<string, number> = {};
      for (const [step, level] of [undefined, 'debug', 'info', 'error', 'debug'].entries()) {
        const before = [fast.notices.length, sdk.notices.length];
        if (level) {
          for (const peer of [fast, sdk]) peer.send([JSON.stringify({ jsonrpc: '2.0', id: `level-${step}`, method: 'logging/setLevel', params: { level } })]);
          await Promise.all([fast.answered(`level-${step}`), sdk.answered(`level-${step}`)]);
        }
        for (const peer of [fast, sdk]) peer.send([call(era, `chatty-${step}`, 'chatty', {})]);
        await Promise.all([fast.answered(`chatty-${step}`), sdk.answered(`chatty-${step}`)]);
        const lines = fast.notices.slice(before[0]);
        expect(lines).toEqual(sdk.notices.slice(before[1]));
        seen[`${step} ${level ?? 'unset'}`] = lines.length;
      }
      // chatty logs once at info and once at debug.
      expect(seen).toEqual({ '0 unset': 2, '1 debug': 2, '2 info': 1, '3 error': 0, '4 debug': 2 });
    });
  }
});
