import { bareHello, toolsetsHello, zodHello, type ServerFactory } from '../contenders/hello-contenders';
import { bareRich, toolsetsRich, zodRich } from '../contenders/rich-contenders';
import { connectInMemory } from '../harness/in-memory';
import { handlerOf } from '../harness/handler-cost';
import { interleave, type Contender } from '../harness/interleave';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

interface Setup {
  scenario: string;
  title: string;
  tool: string;
  args: Record<string, unknown>;
  factories: Record<'bare' | 'zod' | 'toolsets', () => ServerFactory>;
  calls: number;
  rounds: number;
}

const LABELS = {
  bare: 'SDK low-level Server, hand-written schema, no validation (floor)',
  zod: 'SDK McpServer.registerTool with Zod input and output schemas',
  toolsets: '@toolsets/core',
};

const KEYS = ['bare', 'zod', 'toolsets'] as const;

/** Per-round ratios: each round's contenders ran back to back. */
function pairedRatios(perRound: Map<string, number[]>, a: string, b: string): number[] {
  const left = perRound.get(a)!;
  const right = perRound.get(b)!;
  return left.map((value, round) => value / right[round]);
}

/** The median over rounds of a per-round ratio. */
function pairedRatio(perRound: Map<string, number[]>, a: string, b: string): number {
  return median(pairedRatios(perRound, a, b));
}

async function measure(setup: Setup): Promise<{ ratios: Record<string, number>; bands: Record<string, number[]>; result: ScenarioResult }> {
  const contenders: Contender[] = [];
  const closers: (() => Promise<void>)[] = [];
  for (const key of KEYS) {
    const { client, close } = await connectInMemory(setup.factories[key]());
    closers.push(close);
    contenders.push({
      name: key,
      async run(calls) {
        for (let i = 0; i < calls; i++) {
          const result = await client.callTool({ name: setup.tool, arguments: setup.args });
          if (result.isError) throw new Error(`${key} failed: ${JSON.stringify(result.content)}`);
        }
      },
    });
  }
  const perRound = await interleave(contenders, { rounds: setup.rounds, calls: setup.calls, warmup: Math.min(2000, setup.calls) });
  await Promise.all(closers.map((close) => close()));

  // The server side alone, same interleaving, to see differences smaller than the end-to-end noise.
  const handlers: Contender[] = KEYS.map((key) => {
    const call = handlerOf(setup.factories[key]());
    return { name: key, run: async (calls) => { for (let i = 0; i < calls; i++) await call(setup.args, setup.tool); } };
  });
  const handlerRounds = await interleave(handlers, { rounds: setup.rounds, calls: setup.calls * 5, warmup: setup.calls });

  const bands = {
    floor: pairedRatios(perRound, 'toolsets', 'bare'),
    zod: pairedRatios(perRound, 'toolsets', 'zod'),
    handlerFloor: pairedRatios(handlerRounds, 'toolsets', 'bare'),
    handlerZod: pairedRatios(handlerRounds, 'toolsets', 'zod'),
  };
  const ratios = {
    floor: median(bands.floor),
    zod: median(bands.zod),
    handlerFloor: median(bands.handlerFloor),
    handlerZod: median(bands.handlerZod),
  };
  const rows = KEYS.map((key) => {
    const values = perRound.get(key)!;
    return [
      LABELS[key],
      fmt(median(values)),
      fmt(Math.min(...values)),
      fmt(Math.max(...values)),
      ratio(pairedRatio(perRound, key, 'bare')),
      fmt(median(handlerRounds.get(key)!), 2),
      ratio(pairedRatio(handlerRounds, key, 'bare')),
    ];
  });
  return {
    ratios,
    bands,
    result: {
      scenario: setup.scenario,
      title: setup.title,
      method:
        `End to end: SDK v2 \`Client\` (2026-07-28) over \`InMemoryTransport\`, every server behind the SDK's serving entry; ${setup.calls.toLocaleString('en')} sequential calls per round, ${setup.rounds} rounds interleaved (order rotated), after a warm-up. ` +
        `Handler: each server's own \`tools/call\` handler (the SDK's wrapper included) called directly, ${(setup.calls * 5).toLocaleString('en')} calls per round, same interleaving. ` +
        'Ratios are the median of per-round ratios; a verdict is pass or miss only when every round agrees, else within noise.',
      headers: ['contender', 'end-to-end µs/call (median)', 'best round', 'worst round', 'vs floor', 'handler µs/call', 'handler vs floor'],
      rows,
      verdicts: [],
    },
  };
}

export async function perCall(): Promise<ScenarioResult> {
  const { ratios, bands, result } = await measure({
    scenario: 'per-call',
    title: '1. Per-call overhead, in memory (one string argument, one-key result)',
    tool: 'hello',
    args: { name: 'bench' },
    factories: { bare: bareHello, zod: zodHello, toolsets: toolsetsHello },
    calls: 20_000,
    rounds: 7,
  });
  result.verdicts = [
    { target: '1: @toolsets/core ≤ 1.02 × the low-level Server (end to end)', measured: ratioWithBand(ratios.floor, bands.floor), outcome: judge((r) => r <= 1.02, ratios.floor, bands.floor) },
    { target: '1: @toolsets/core faster than McpServer + Zod (end to end)', measured: `${ratioWithBand(ratios.zod, bands.zod)} of Zod`, outcome: judge((r) => r < 1, ratios.zod, bands.zod) },
    { target: '1: handler alone ≤ 0.90 × McpServer + Zod', measured: `${ratioWithBand(ratios.handlerZod, bands.handlerZod)} of Zod`, outcome: judge((r) => r <= 0.9, ratios.handlerZod, bands.handlerZod) },
  ];
  return result;
}

export async function richResult(): Promise<ScenarioResult> {
  const { ratios, bands, result } = await measure({
    scenario: 'rich-result',
    title: '2. Per-call overhead with a rich result (50 nested objects, undeclared extra keys, optional keys absent)',
    tool: 'search',
    args: { query: 'bench' },
    factories: { bare: bareRich, zod: zodRich, toolsets: toolsetsRich },
    calls: 5_000,
    rounds: 7,
  });
  result.verdicts = [
    { target: '2: @toolsets/core faster than McpServer + Zod (end to end)', measured: `${ratioWithBand(ratios.zod, bands.zod)} of Zod`, outcome: judge((r) => r < 1, ratios.zod, bands.zod) },
    { target: '2: handler alone ≤ 0.90 × McpServer + Zod', measured: `${ratioWithBand(ratios.handlerZod, bands.handlerZod)} of Zod`, outcome: judge((r) => r <= 0.9, ratios.handlerZod, bands.handlerZod) },
  ];
  result.notes = [
    'The floor sends the payload as returned, undeclared keys included; @toolsets/core drops them (a smaller response) and validates what it sends.',
  ];
  return result;
}
