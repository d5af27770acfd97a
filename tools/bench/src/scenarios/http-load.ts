import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startHttpContenderProcess } from '../harness/http-contender';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { processCpuMicros } from '../harness/process-cpu';
import { median, percentile } from '../harness/stats';

/** Sequential, 8 and 32 concurrent clients: the first two have the tighter target. */
const LEVELS: readonly { workers: number; target: number }[] = [
  { workers: 1, target: 0.97 },
  { workers: 8, target: 0.97 },
  { workers: 32, target: 0.9 },
];
const WARMUP_MS = 1_000;
const MEASURE_MS = 3_000;
const ROUNDS = 5;

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

/**
 * Closed-loop load: `workers` clients (alternating eras) call as fast as answers come back.
 * Also reads the server process's CPU time over the measured window: its cost per call.
 */
async function load(url: string, workers: number, serverPid: number): Promise<{ perSecond: number; latencies: number[]; cpuMicrosPerCall: number }> {
  const clients = await Promise.all(Array.from({ length: workers }, (_, i) => connect(url, i)));
  const latencies: number[] = [];
  const begin = performance.now();
  const measureFrom = begin + WARMUP_MS;
  const end = measureFrom + MEASURE_MS;
  let counted = 0;
  // The CPU window runs from the warm-up's end to the last answer; so do the calls it is divided by.
  let completed = 0;
  let window: { cpu: number; completed: number } | undefined;
  const opening = setTimeout(() => (window = { cpu: processCpuMicros(serverPid), completed }), WARMUP_MS);
  await Promise.all(
    clients.map(async ({ call }) => {
      while (performance.now() < end) {
        const start = performance.now();
        await call({ name: 'hello', arguments: { name: 'load' } });
        const done = performance.now();
        completed++;
        if (start >= measureFrom && done <= end) {
          latencies.push(done - start);
          counted++;
        }
      }
    }),
  );
  clearTimeout(opening);
  const cpuMicrosPerCall = window ? (processCpuMicros(serverPid) - window.cpu) / (completed - window.completed) : Number.NaN;
  await Promise.all(clients.map((c) => c.close()));
  return { perSecond: counted / (MEASURE_MS / 1000), latencies, cpuMicrosPerCall };
}

export async function httpScenario(script: string): Promise<ScenarioResult> {
  type Tally = { perSecond: number[]; latencies: number[]; cpu: number[] };
  const results = new Map<string, Tally>();
  const tally = (contender: string, workers: number) => {
    const key = `${contender}/${workers}`;
    if (!results.has(key)) results.set(key, { perSecond: [], latencies: [], cpu: [] });
    return results.get(key)!;
  };
  // Both servers run for the whole round (the idle one costs nothing); each level measures them
  // back to back, in alternating order, so a pair sees the same machine and the ratio is paired.
  for (let round = 0; round < ROUNDS; round++) {
    const servers = new Map<string, Awaited<ReturnType<typeof startHttpContenderProcess>>>();
    for (const contender of ['toolsets', 'bare']) servers.set(contender, await startHttpContenderProcess(script, contender));
    for (const { workers } of LEVELS) {
      for (const contender of round % 2 === 0 ? ['toolsets', 'bare'] : ['bare', 'toolsets']) {
        const server = servers.get(contender)!;
        const { perSecond, latencies, cpuMicrosPerCall } = await load(server.url, workers, server.child.pid!);
        tally(contender, workers).perSecond.push(perSecond);
        tally(contender, workers).latencies.push(...latencies);
        tally(contender, workers).cpu.push(cpuMicrosPerCall);
      }
    }
    for (const { child } of servers.values()) child.kill();
  }
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  for (const { workers, target } of LEVELS) {
    // Each round's paired ratio; the band leaves out the highest and the lowest (one stall on a shared machine each way).
    const shares = tally('toolsets', workers).perSecond.map((value, round) => value / tally('bare', workers).perSecond[round]);
    const share = median(shares);
    const band = [...shares].sort((a, b) => a - b).slice(1, -1);
    // The server's CPU per call, paired the same way: bare ÷ toolsets is the capacity ratio of a dedicated server.
    const capacities = tally('toolsets', workers).cpu.map((value, round) => tally('bare', workers).cpu[round] / value);
    const capacity = median(capacities);
    const capacityBand = [...capacities].sort((a, b) => a - b).slice(1, -1);
    const row = (contender: string, label: string) => [
      label,
      String(workers),
      fmt(median(tally(contender, workers).perSecond), 0),
      fmt(percentile(tally(contender, workers).latencies, 50), 2),
      fmt(percentile(tally(contender, workers).latencies, 99), 2),
      ratio(contender === 'bare' ? 1 : share),
      fmt(median(tally(contender, workers).cpu), 0),
      ratio(contender === 'bare' ? 1 : capacity),
    ];
    rows.push(row('bare', 'bare low-level Server behind createMcpHandler'), row('toolsets', '@toolsets/core serveHttp'));
    const clients = workers === 1 ? 'sequential' : `${workers} clients`;
    verdicts.push(
      {
        target: `@toolsets/core ≥ ${target} × the bare server’s throughput, ${clients}`,
        measured: `${ratioWithBand(share, band)}; rounds ${shares.map((r) => fmt(r, 2)).join(', ')}`,
        outcome: judge((r) => r >= target, share, band),
      },
      {
        target: `@toolsets/core ≥ ${target} × the bare server’s capacity (server CPU per call), ${clients}`,
        measured: `${ratioWithBand(capacity, capacityBand)}; rounds ${capacities.map((r) => fmt(r, 2)).join(', ')}`,
        outcome: judge((r) => r >= target, capacity, capacityBand),
      },
    );
  }
  return {
    scenario: 'http',
    title: '4. Streamable HTTP on loopback (stateless `createMcpHandler`, both client eras)',
    method: `Server in its own process; 1, 8 and 32 concurrent clients in the bench process (alternating SDK v2 pinned to 2026-07-28 and the v1 2025-era client), closed loop, ${WARMUP_MS / 1000} s warm-up then ${MEASURE_MS / 1000} s measured per level; ${ROUNDS} rounds, each with both servers up and every level measured on the two back to back (alternating which goes first), so each round gives a paired ratio: the verdict is their median, the band the middle three. Both servers use the same loopback Host/Origin guards.`,
    headers: ['server', 'clients', 'calls/s (median round)', 'p50 ms', 'p99 ms', 'throughput vs bare (median paired ratio)', 'server CPU µs/call', 'capacity vs bare'],
    rows,
    verdicts,
    notes: [
      'On 2 cores the load generator shares the machine with the server, so absolute calls/s understate a dedicated server, and the closed-loop throughput ratio also moves with how the scheduler splits the cores between the two processes.',
      'The server CPU per call (user + system time of the server process over the measured window, from /proc, divided by the calls completed in it) does not depend on that split: bare ÷ toolsets is what a dedicated server of each would sustain.',
      'A sequential client (1) runs the v2 client only.',
    ],
  };
}
