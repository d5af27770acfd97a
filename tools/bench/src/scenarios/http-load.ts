import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpContenderProcess } from '../harness/http-contender';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median, percentile } from '../harness/stats';

const WORKERS = 32;
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

/** Closed-loop load: WORKERS clients (half each era) call as fast as answers come back. */
async function load(url: string): Promise<{ perSecond: number; latencies: number[] }> {
  const clients = await Promise.all(Array.from({ length: WORKERS }, (_, i) => connect(url, i)));
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
  const results: Record<string, { perSecond: number[]; latencies: number[] }> = { toolsets: { perSecond: [], latencies: [] }, bare: { perSecond: [], latencies: [] } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of round % 2 === 0 ? ['toolsets', 'bare'] : ['bare', 'toolsets']) {
      const { child, url } = await startHttpContenderProcess(script, contender);
      const { perSecond, latencies } = await load(url);
      child.kill();
      results[contender].perSecond.push(perSecond);
      results[contender].latencies.push(...latencies);
    }
  }
  const throughput = (key: string) => median(results[key].perSecond);
  const row = (key: string, label: string) => [
    label,
    fmt(throughput(key), 0),
    fmt(percentile(results[key].latencies, 50), 2),
    fmt(percentile(results[key].latencies, 99), 2),
    ratio(throughput(key) / throughput('bare')),
  ];
  const share = throughput('toolsets') / throughput('bare');
  const shares = results['toolsets'].perSecond.map((value, round) => value / results['bare'].perSecond[round]);
  return {
    scenario: 'http',
    title: '4. Streamable HTTP on loopback (stateless `createMcpHandler`, both client eras)',
    method: `Server in its own process; ${WORKERS} concurrent clients in the bench process (half SDK v2 pinned to 2026-07-28, half the v1 2025-era client), closed loop, ${WARMUP_MS / 1000} s warm-up then ${MEASURE_MS / 1000} s measured, ${ROUNDS} rounds alternating. Both servers use the same loopback Host/Origin guards.`,
    headers: ['server', 'calls/s (median round)', 'p50 ms', 'p99 ms', 'vs bare'],
    rows: [row('bare', 'bare low-level Server behind createMcpHandler'), row('toolsets', '@toolsets/core serveHttp')],
    verdicts: [{ target: '@toolsets/core ≥ 0.9 × the bare server’s throughput', measured: ratioWithBand(share, shares), outcome: judge((r) => r >= 0.9, share, shares) }],
    notes: ['On 2 cores the load generator shares the machine with the server, so absolute calls/s understate a dedicated server; the ratio is the result.'],
  };
}
