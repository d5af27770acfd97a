import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import {
  buildServer,
  Cache,
  CallTimeoutError,
  Field,
  InterceptorOptionError,
  RateLimit,
  RequestContext,
  Timeout,
  Timing,
  Tool,
  ToolError,
  ToolResult,
  Toolset,
  UseInterceptors,
  type InterceptorClass,
} from '../../src';
import { connectClient, recordingLogger } from '../support/connect';

class CountResult extends ToolResult {
  @Field()
  runs!: number;
}

class LookupArgs {
  @Field()
  city!: string;
}

/** A server with one tool wrapped by `interceptor`; `runs` counts how often the tool itself ran. */
function serverWith(interceptor: InterceptorClass, options: { delayMs?: number; failFor?: string } = {}) {
  const state = { runs: 0, reasons: [] as unknown[] };
  @Toolset({ name: 'counted', credentialHeaders: ['x-api-key'] })
  class Counted {
    constructor(private readonly context: RequestContext) {}

    @UseInterceptors(interceptor)
    @Tool({ description: 'Look a city up.', args: LookupArgs, returns: [CountResult, ToolError], annotations: { readOnlyHint: true } })
    async lookup({ city }: LookupArgs): Promise<CountResult | ToolError> {
      const runs = ++state.runs;
      if (options.delayMs) await waitOrAbort(options.delayMs, this.context.signal);
      if (this.context.signal.aborted) state.reasons.push(this.context.signal.reason);
      if (city === options.failFor) return new ToolError('not_found', city);
      return { message: city, runs };
    }
  }
  const { logger, lines } = recordingLogger();
  return { server: buildServer({ name: 'built-ins', version: '1', toolsets: [Counted], logger }), state, lines };
}

function waitOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
}

async function clientWithKey(server: ReturnType<typeof serverWith>['server'], key: string): Promise<Client> {
  return connectClient(server, { headers: { 'x-api-key': key } });
}

const lookup = (client: Client, city = 'Oslo') => client.callTool({ name: 'lookup', arguments: { city } });

describe('RateLimit', () => {
  it('lets a burst of capacity through per caller and answers the rest rate_limited with the seconds to wait', async () => {
    const { server, state } = serverWith(RateLimit({ capacity: 3, refillPerSecond: 0.5 }));
    const alice = await clientWithKey(server, 'alice-key');
    const bob = await clientWithKey(server, 'bob-key');
    const results = await Promise.all([...Array.from({ length: 10 }, () => lookup(alice)), ...Array.from({ length: 4 }, () => lookup(bob))]);
    const limited = results.filter((r) => (r.structuredContent as { error?: string })?.error === 'rate_limited');
    expect(state.runs).toBe(6);
    expect(limited).toHaveLength(8);
    expect((limited[0]!.structuredContent as { detail: string }).detail).toMatch(/Retry after 2 s\.$/);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('refills over time', async () => {
    const clock = { ms: 1_000_000 };
    const { server, state } = serverWith(RateLimit({ capacity: 1, refillPerSecond: 20, now: () => clock.ms }));
    const client = await clientWithKey(server, 'k');
    expect((await lookup(client)).isError).toBeUndefined();
    expect((await lookup(client)).isError).toBe(true);
    clock.ms += 49;
    expect((await lookup(client)).isError).toBe(true);
    clock.ms += 1;
    expect((await lookup(client)).isError).toBeUndefined();
    expect(state.runs).toBe(2);
    await client.close();
  });
});

describe('Timeout', () => {
  it('answers timeout at the deadline and aborts the tool signal, while calls that finish in time pass', async () => {
    // The slow tool would take a minute (it stops when its signal aborts); the fast one finishes far inside its own deadline.
    const slow = serverWith(Timeout(60), { delayMs: 60_000 });
    const fast = serverWith(Timeout(30_000), { delayMs: 5 });
    const slowClient = await connectClient(slow.server);
    const fastClient = await connectClient(fast.server);
    const started = Date.now();
    const [slowResults, fastResults] = await Promise.all([Promise.all([1, 2, 3].map(() => lookup(slowClient))), Promise.all([1, 2, 3].map(() => lookup(fastClient)))]);
    // Answered at the deadline, not after the tool's minute (a bound any machine meets).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(slowResults.map((r) => (r.structuredContent as { error: string }).error)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(fastResults.every((r) => r.isError === undefined)).toBe(true);
    // Each tool sees its signal abort when the deadline answers; it records why once it wakes.
    while (slow.state.reasons.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(slow.state.reasons[0]).toBeInstanceOf(CallTimeoutError);
    await Promise.all([slowClient.close(), fastClient.close()]);
  });
});

describe('Cache', () => {
  it('runs the tool once for concurrent identical calls, and again for other arguments or another caller', async () => {
    const { server, state } = serverWith(Cache({ ttlMs: 60_000 }), { delayMs: 30 });
    const alice = await clientWithKey(server, 'alice-key');
    const bob = await clientWithKey(server, 'bob-key');
    const same = await Promise.all(Array.from({ length: 8 }, () => lookup(alice)));
    expect(state.runs).toBe(1);
    expect(same.every((r) => (r.structuredContent as { runs: number }).runs === 1)).toBe(true);
    await lookup(alice, 'Bergen');
    await lookup(bob);
    expect(state.runs).toBe(3);
    await lookup(alice);
    expect(state.runs).toBe(3);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('keeps no ToolError and forgets answers after the TTL', async () => {
    const clock = { ms: 1_000_000 };
    const { server, state } = serverWith(Cache({ ttlMs: 40, now: () => clock.ms }), { failFor: 'Nowhere' });
    const client = await clientWithKey(server, 'k');
    await lookup(client, 'Nowhere');
    await lookup(client, 'Nowhere');
    expect(state.runs).toBe(2);
    await lookup(client);
    await lookup(client);
    expect(state.runs).toBe(3);
    // Reused up to the age of ttlMs, run again past it.
    clock.ms += 40;
    await lookup(client);
    expect(state.runs).toBe(3);
    clock.ms += 1;
    await lookup(client);
    expect(state.runs).toBe(4);
    await client.close();
  });
});

describe('Timing', () => {
  it('logs each concurrent call with its duration and outcome', async () => {
    const { server, lines } = serverWith(Timing, { delayMs: 10, failFor: 'Nowhere' });
    const client = await connectClient(server);
    await Promise.all([lookup(client), lookup(client, 'Nowhere'), lookup(client)]);
    const timed = lines.filter((line) => line.message === 'tool call timed').map((line) => line.fields as { tool: string; ms: number; outcome: string });
    expect(timed).toHaveLength(3);
    expect(timed.map((t) => t.outcome).sort()).toEqual(['ok', 'ok', 'tool_error']);
    expect(timed.every((t) => t.tool === 'lookup' && t.ms >= 5)).toBe(true);
    await client.close();
  });
});

describe('built-in options', () => {
  it("sends RateLimit's and Timeout's refusals as tool errors on tools whose returns declare no ToolError, logging no server bug", async () => {
    @Toolset({ name: 'bare' })
    class Bare {
      @UseInterceptors(RateLimit({ capacity: 1, refillPerSecond: 0.01 }))
      @Tool({ description: 'Runs once.', returns: CountResult })
      once(): CountResult {
        return { message: 'ran', runs: 1 };
      }

      @UseInterceptors(Timeout(20))
      @Tool({ description: 'Too slow.', returns: CountResult })
      async slow(): Promise<CountResult> {
        await new Promise((done) => setTimeout(done, 200));
        return { message: 'late', runs: 1 };
      }
    }
    const { logger, lines } = recordingLogger();
    const client = await connectClient(buildServer({ name: 'bare', version: '1', toolsets: [Bare], logger }));
    expect((await client.callTool({ name: 'once', arguments: {} })).isError).toBeFalsy();
    const limited = await client.callTool({ name: 'once', arguments: {} });
    expect(limited).toMatchObject({ content: [{ type: 'text', text: expect.stringMatching(/^rate_limited: Too many calls to 'once': .* Retry after \d+ s\.$/) }], isError: true });
    const late = await client.callTool({ name: 'slow', arguments: {} });
    expect(late.isError).toBe(true);
    expect((late.content as { text: string }[])[0]!.text).toMatch(/^timeout: /);
    expect(late.structuredContent).toBeUndefined();
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    await client.close();
  });

  it('are checked when written, naming the option and the fix', () => {
    expect(() => RateLimit({ capacity: 0, refillPerSecond: 1 })).toThrow(new InterceptorOptionError('RateLimit', 'capacity', 0, 'give the number of calls a caller may make at once, a whole number of at least 1.'));
    expect(() => RateLimit({ capacity: 2, refillPerSecond: -1 })).toThrow(/RateLimit: refillPerSecond is -1\. Fix: /);
    expect(() => RateLimit({ capacity: 2, refillPerSecond: 1, now: 5 as never })).toThrow(/RateLimit: now is 5\. Fix: give a function that returns the time in milliseconds/);
    expect(() => Cache({ ttlMs: 10, now: 'soon' as never })).toThrow(/Cache: now is "soon"\. Fix: give a function/);
    expect(() => Timeout(0.5)).toThrow(/Timeout: ms is 0\.5\. Fix: give the deadline in whole milliseconds/);
    expect(() => Cache({ ttlMs: 1000, key: 'everyone' as never })).toThrow(/Cache: key is "everyone"\. Fix: use 'caller'/);
  });
});
