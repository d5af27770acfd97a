import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { startHttpContenderProcess } from '../harness/http-contender';
import { LOAD_THREADS, LoadThreads } from '../harness/load-threads';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median, percentile } from '../harness/stats';

/**
 * Sequential, 8 and 32 concurrent clients of both eras (the first two have the tighter target),
 * and 8 clients of each era alone: the fast path serves 2026-07-28 calls, so that level shows it.
 */
const LEVELS: readonly { workers: number; target: number; era?: 'modern' | 'legacy' }[] = [
  { workers: 1, target: 0.97 },
  { workers: 8, target: 0.97 },
  { workers: 8, target: 0.97, era: 'modern' },
  { workers: 8, target: 0.97, era: 'legacy' },
  { workers: 32, target: 0.9 },
];
const WARMUP_MS = 1_000;
const MEASURE_MS = 3_000;
const ROUNDS = 5;
/** Each fresh server process is first driven this long at 8 clients: its code is compiled before any level counts. */
const JIT_WARMUP_MS = 3_000;

/**
 * The servers measured: toolsets, toolsets with its fast path off (`fastPath: false`: every call
 * through the SDK), the bare SDK server, and a plain node:http server sending the same bytes (the floor).
 */
const CONTENDERS = ['toolsets', 'toolsets-sdk', 'bare', 'floor'] as const;
/** Issue 59's targets at 8 clients: server CPU per call against the bare SDK's and against the floor's. */
const CPU_TARGET_VS_BARE = 0.35;
const CPU_TARGET_VS_FLOOR = 2;

/**
 * Pins this process (the load generator, every thread) to core 0 and returns core 1 for the
 * servers, so a server never waits for the clients' core; undefined where there is no `taskset` or one core.
 */
function pinLoadGenerator(): number | undefined {
  if (availableParallelism() < 2) return undefined;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return 1;
  } catch {
    return undefined;
  }
}

type Level = (typeof LEVELS)[number];
type Tally = { perSecond: number[]; latencies: number[]; cpu: number[]; rss: number[] };

/** A level's clients, as the table names them: `8 (2026-07-28)`, `8 (both eras)`. */
function clientsOf(level: Level): string {
  if (level.workers === 1) return '1';
  return `${level.workers} (${level.era === 'modern' ? '2026-07-28' : level.era === 'legacy' ? '2025 era' : 'both eras'})`;
}

export async function httpScenario(script: string): Promise<ScenarioResult> {
  const results = new Map<string, Tally>();
  const tally = (contender: string, level: Level) => {
    const key = `${contender}/${level.workers}/${level.era ?? 'both'}`;
    if (!results.has(key)) results.set(key, { perSecond: [], latencies: [], cpu: [], rss: [] });
    return results.get(key)!;
  };
  // Both servers run for the whole round (the idle one costs nothing); each level measures them
  // back to back, in alternating order, so a pair sees the same machine and the ratio is paired.
  const serverCpu = pinLoadGenerator();
  const load = new LoadThreads();
  for (let round = 0; round < ROUNDS; round++) {
    const servers = new Map<string, Awaited<ReturnType<typeof startHttpContenderProcess>>>();
    for (const contender of CONTENDERS) servers.set(contender, await startHttpContenderProcess(script, contender, serverCpu));
    // A fresh process runs slower until V8 has compiled its hot paths, and the framework has more
    // code to compile: without this, the round's first level measures compilation, not serving.
    for (const { url, child } of servers.values()) await load.run(url, 8, child.pid!, JIT_WARMUP_MS, 0);
    for (const level of LEVELS) {
      // Each round starts with another contender, so none is always measured first.
      for (const contender of CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]!)) {
        const server = servers.get(contender)!;
        const { perSecond, latencies, cpuMicrosPerCall, rssBytes } = await load.run(server.url, level.workers, server.child.pid!, WARMUP_MS, MEASURE_MS, level.era);
        tally(contender, level).rss.push(rssBytes);
        tally(contender, level).perSecond.push(perSecond);
        tally(contender, level).latencies.push(...latencies);
        tally(contender, level).cpu.push(cpuMicrosPerCall);
      }
    }
    for (const { child } of servers.values()) child.kill();
  }
  await load.close();
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  // Each round's paired ratio of a contender's figure to another's; the band leaves out the highest and the lowest (one stall on a shared machine each way).
  const paired = (level: Level, pick: (t: Tally) => number[], of: string, to: string) => pick(tally(of, level)).map((value, round) => value / pick(tally(to, level))[round]);
  const band = (values: number[]) => [...values].sort((a, b) => a - b).slice(1, -1);
  const rounds = (values: number[]) => `${ratioWithBand(median(values), band(values))}; rounds ${values.map((r) => fmt(r, 2)).join(', ')}`;
  for (const level of LEVELS) {
    const { workers, target } = level;
    const row = (contender: string, label: string) => [
      label,
      clientsOf(level),
      fmt(median(tally(contender, level).perSecond), 0),
      fmt(percentile(tally(contender, level).latencies, 50), 2),
      fmt(percentile(tally(contender, level).latencies, 99), 2),
      ratio(contender === 'bare' ? 1 : median(paired(level, (t) => t.perSecond, contender, 'bare'))),
      fmt(median(tally(contender, level).cpu), 0),
      // bare ÷ this server's CPU per call: the capacity ratio of a dedicated server.
      ratio(contender === 'bare' ? 1 : median(paired(level, (t) => t.cpu, 'bare', contender))),
      fmt(median(tally(contender, level).rss) / 2 ** 20, 0),
    ];
    rows.push(
      row('bare', 'bare low-level Server behind createMcpHandler'),
      row('toolsets', '@toolsets/core serveHttp (fast path on, the default)'),
      row('toolsets-sdk', '@toolsets/core serveHttp, fastPath: false'),
      row('floor', 'plain node:http, the same bytes (the floor)'),
    );
    const clients = workers === 1 ? 'sequential' : clientsOf(level);
    if (level.era === undefined) {
      const shares = paired(level, (t) => t.perSecond, 'toolsets', 'bare');
      const capacities = paired(level, (t) => t.cpu, 'bare', 'toolsets');
      verdicts.push(
        { target: `@toolsets/core ≥ ${target} × the bare server’s throughput, ${clients}`, measured: rounds(shares), outcome: judge((r) => r >= target, median(shares), band(shares)) },
        { target: `@toolsets/core ≥ ${target} × the bare server’s capacity (server CPU per call), ${clients}`, measured: rounds(capacities), outcome: judge((r) => r >= target, median(capacities), band(capacities)) },
      );
    }
    if (workers === 8 && level.era !== 'legacy') {
      // Issue 59: the server's CPU per call against the bare SDK's, and against the floor's, paired per round.
      const vsBare = paired(level, (t) => t.cpu, 'toolsets', 'bare');
      const vsFloor = paired(level, (t) => t.cpu, 'toolsets', 'floor');
      const vsOff = paired(level, (t) => t.cpu, 'toolsets', 'toolsets-sdk');
      verdicts.push(
        { target: `@toolsets/core server CPU per call ≤ ${CPU_TARGET_VS_BARE} × the bare SDK server’s, ${clients}`, measured: rounds(vsBare), outcome: judge((r) => r <= CPU_TARGET_VS_BARE, median(vsBare), band(vsBare)) },
        { target: `@toolsets/core server CPU per call ≤ ${CPU_TARGET_VS_FLOOR} × the plain node:http floor’s, ${clients}`, measured: rounds(vsFloor), outcome: judge((r) => r <= CPU_TARGET_VS_FLOOR, median(vsFloor), band(vsFloor)) },
        { target: `fast path on: server CPU per call < 1 × fast path off, ${clients}`, measured: rounds(vsOff), outcome: judge((r) => r < 1, median(vsOff), band(vsOff)) },
      );
    }
  }
  return {
    scenario: 'http',
    title: '4. Streamable HTTP on loopback (stateless `createMcpHandler`, both client eras)',
    method: `Each server in its own process${serverCpu === undefined ? '' : ', pinned to core 1 while the load generator is pinned to core 0 (`taskset`)'}: the bare SDK server, toolsets with its fast path (the default) and without it (\`fastPath: false\`), and a plain \`node:http\` server that reads and parses each body and answers with the bytes toolsets sends (recorded once at its start: the floor of this stack). 1, 8 and 32 concurrent clients (alternating SDK v2 pinned to 2026-07-28 and the v1 2025-era client), and 8 clients of each era alone on ${LOAD_THREADS(8)} load-generator threads of the bench process (1 for a sequential client), closed loop; each fresh server process is first driven ${JIT_WARMUP_MS / 1000} s at 8 clients (V8 compiles its hot paths), then every level has ${WARMUP_MS / 1000} s warm-up and ${MEASURE_MS / 1000} s measured, after collecting the load generator's garbage; ${ROUNDS} rounds, each with every server up and every level measured on each back to back (a different one first each round), so each round gives a paired ratio: the verdict is their median, the band the middle three. Both servers use the same loopback Host/Origin guards.`,
    headers: ['server', 'clients', 'calls/s (median round)', 'p50 ms', 'p99 ms', 'throughput vs bare (median paired ratio)', 'server CPU µs/call', 'capacity vs bare', 'server RSS MiB'],
    rows,
    verdicts,
    notes: [
      'On 2 cores the load generator shares the machine with the server, so absolute calls/s understate a dedicated server, and the closed-loop throughput ratio also moves with how the scheduler splits the cores between the processes.',
      'One load-generator thread driving 8 clients ran at 100 % of a core while the server idled part of the time, so that level measured the client thread; with the clients on two threads the cores are the bottleneck, shared by clients and server, so the server’s cost per call shows in the calls per second.',
      'The server CPU per call (user + system time of the server process over the measured window, from /proc, divided by the calls completed in it) does not depend on that split: bare ÷ toolsets is what a dedicated server of each would sustain.',
      'A sequential client (1) runs the v2 client only.',
      'The workload is the one MCP-Nest publishes (a stateless `tools/call` of a tool that echoes its one string argument, `hello`), so the calls/s and RSS columns can be set beside figures from outside this repository; the harness is this one (its clients, its closed loop), not theirs. RSS is the server process’s resident set at the end of each measured window (median round).',
      'The fast path answers the `tools/call` requests of both eras that carry only a tool’s name and arguments (every call here); `fastPath: false` sends them through the SDK’s per-request server, as every release before it did.',
    ],
  };
}
