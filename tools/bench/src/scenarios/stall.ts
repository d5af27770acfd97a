import { performance } from 'node:perf_hooks';
import { startHttpContenderProcess } from '../harness/http-contender';
import { fmt, judge, ratio, type ScenarioResult } from '../harness/report';

const BIG_CALLS = 16;
const ROUNDS = 3;

/** Payloads of about 1 MiB a hostile or careless client can send to any tool. */
const SHAPES: Record<string, () => string> = {
  'array of 140k strings': () => toolsCall({ name: 'a', pad: Array.from({ length: 140_000 }, (_, i) => `n${i}`) }),
  'nesting 500k deep': () => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{"name":"a","pad":${'['.repeat(500_000)}${']'.repeat(500_000)}}}}`,
  'one 1 MB string': () => toolsCall({ name: 'x'.repeat(1_000_000) }),
};

function toolsCall(args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hello', arguments: args } });
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** The worst latency of a small call made back to back while BIG_CALLS large ones are in flight. */
async function worstStall(url: string, body: string): Promise<number> {
  const small = toolsCall({ name: 'probe' });
  const post = (payload: string) => fetch(url, { method: 'POST', headers: HEADERS, body: payload }).then((r) => r.text());
  await post(small);
  let done = false;
  const bigs = Promise.all(Array.from({ length: BIG_CALLS }, () => post(body))).finally(() => (done = true));
  let worst = 0;
  while (!done) {
    const start = performance.now();
    await post(small);
    worst = Math.max(worst, performance.now() - start);
  }
  await bigs;
  return worst;
}

/**
 * The event-loop stall one large arguments object causes: the same server with the argument
 * guard (the defaults) and with it lifted, side by side, both accepting 2 MiB bodies.
 */
export async function stallScenario(script: string): Promise<ScenarioResult> {
  const guarded = await startHttpContenderProcess(script, 'toolsets');
  const unguarded = await startHttpContenderProcess(script, 'toolsets-unguarded');
  const rows: string[][] = [];
  let worstRatio = 0;
  try {
    for (const [shape, make] of Object.entries(SHAPES)) {
      const body = make();
      const off: number[] = [];
      const on: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        off.push(await worstStall(unguarded.url, body));
        on.push(await worstStall(guarded.url, body));
      }
      const without = Math.max(...off);
      const withGuard = Math.max(...on);
      worstRatio = Math.max(worstRatio, withGuard / without);
      rows.push([shape, `${fmt(body.length / 2 ** 20, 2)} MiB`, fmt(without, 0), fmt(withGuard, 0), ratio(withGuard / without)]);
    }
  } finally {
    guarded.child.kill();
    unguarded.child.kill();
  }
  return {
    scenario: 'stall',
    title: '6. Worst stall from large arguments (argument guard)',
    method:
      `${BIG_CALLS} calls with about 1 MiB of arguments in flight at once, while one client calls \`hello\` back to back; ` +
      `the worst latency of those small calls over ${ROUNDS} rounds, in ms. "Without" lifts the argument limits (the code before the guard); ` +
      '"with" uses the defaults (10,000 items, 100,000 characters per string, depth 32). Both servers accept 2 MiB bodies.',
    headers: ['payload', 'body', 'worst stall without guard (ms)', 'with guard (ms)', 'ratio'],
    rows,
    verdicts: [{ target: 'argument guard: worst small-call stall ≤ 0.5× without it, on every payload', measured: ratio(worstRatio), outcome: judge((r) => r <= 0.5, worstRatio) }],
    notes: ['What remains with the guard is reading and parsing the bodies (JSON.parse and the SDK\'s request parse), which happen before any tool code.'],
  };
}
