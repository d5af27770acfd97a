import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpContenderProcess } from '../harness/http-contender';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median, percentile } from '../harness/stats';

/** Sequential, 8 and 32 concurrent clients: the first two have the tighter target. */
const LEVELS: readonly { workers: number; target: number }[] = [
  { workers: 1, target: 0.97 },
  { workers: 8, target: 0.97 },
  { workers: 32, target: 0.9 },
];
const WARMUP_MS = 1_000;
const MEASURE_MS = 4_000;
const ROUNDS = 3;

type CallTool = (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>;

async function connect(url: string, worker: number): Promise<{ call: CallTool; close(): Promise<void> }> {
  if (worker % 2 === 0) {
    const client = new Client({ name: 'load', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { call: (p) => client.callTool(p), close: () => client.close() };
  }
  const client = new LegacyClient({ name: 'load-2025', version: '1' });
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return { call: (p) => client.callTool(p), close: () => client.close() };
}

/** Closed-loop load: `workers` clients (alternating eras) call as fast as answers come back. */
async function load(url: string, workers: number): Promise<{ perSecond: number; latencies: number[] }> {
  const clients = await Promise.all(Array.from({ length: workers }, (_, i) => connect(url, i)));
  const latencies: number[] = [];
  const begin = performance.now();
  const measureFrom = begin + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  let counted = 0;
  await Promise.all(
    clients.map(async ({ call }) => {
      while (performance.now() < end) {
        const start = performance.now();
        await call({ name: 'hello', arguments: { name: 'load' } });
        const done = performance.now();
        if (start >= measureFrom && done <= end) {
          latencies.push(done - start);
          counted++;
        }
      }
    }),
  );
  await Promise.all(clients.map((c) => c.close()));
  return { perSecond: counted / (MEASURE_MS / 1000), latencies };
}

export async function httpScenario(script: string): Promise<ScenarioResult> {
  type Tally = { perSecond: number[]; latencies: number[] };
  const results = new Map<string, Tally>();
  const tally = (contender: string, workers: number) => {
    const key = `${contender}/${workers}`;
    if (!results.has(key)) results.set(key, { perSecond: [], latencies: [] });
    return results.get(key)!;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of round % 2 === 0 ? ['toolsets', 'bare'] : ['bare', 'toolsets']) {
      const { child, url } = await startHttpContenderProcess(script, contender);
      for (const { workers } of LEVELS) {
        const { perSecond, latencies } = await load(url, workers);
        tally(contender, workers).perSecond.push(perSecond);
        tally(contender, workers).latencies.push(...latencies);
      }
      child.kill();
    }
  }
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  for (const { workers, target } of LEVELS) {
    const throughput = (contender: string) => median(tally(contender, workers).perSecond);
    const row = (contender: string, label: string) => [
      label,
      String(workers),
      fmt(throughput(contender), 0),
      fmt(percentile(tally(contender, workers).latencies, 50), 2),
      fmt(percentile(tally(contender, workers).latencies, 99), 2),
      ratio(throughput(contender) / throughput('bare')),
    ];
    rows.push(row('bare', 'bare low-level Server behind createMcpHandler'), row('toolsets', '@toolsets/core serveHttp'));
    const share = throughput('toolsets') / throughput('bare');
    const shares = tally('toolsets', workers).perSecond.map((value, round) => value / tally('bare', workers).perSecond[round]);
    verdicts.push({
      target: `@toolsets/core ≥ ${target} × the bare server’s throughput, ${workers === 1 ? 'sequential' : `${workers} clients`}`,
      measured: ratioWithBand(share, shares),
      outcome: judge((r) => r >= target, share, shares),
    });
  }
  return {
    scenario: 'http',
    title: '4. Streamable HTTP on loopback (stateless `createMcpHandler`, both client eras)',
    method: `Server in its own process; 1, 8 and 32 concurrent clients in the bench process (alternating SDK v2 pinned to 2026-07-28 and the v1 2025-era client), closed loop, ${WARMUP_MS / 1000} s warm-up then ${MEASURE_MS / 1000} s measured per level, ${ROUNDS} rounds alternating the servers. Both servers use the same loopback Host/Origin guards.`,
    headers: ['server', 'clients', 'calls/s (median round)', 'p50 ms', 'p99 ms', 'vs bare'],
    rows,
    verdicts,
    notes: ['On 2 cores the load generator shares the machine with the server, so absolute calls/s understate a dedicated server; the ratio is the result. A sequential client (1) runs the v2 client only.'],
  };
}
