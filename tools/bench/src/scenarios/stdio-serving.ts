import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildServer, serveStdio } from '@toolsets/core';
import { HelloToolset } from '@toolsets/hello';
import { processCpuMicros } from '../harness/process-cpu';
import { fmt, judge, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

const ROUNDS = 8;
const CALLS = 1_000;
const WARMUP = 500;
const CALLED = [
  { name: 'hello', arguments: { name: 'Ada' } },
  { name: 'greet_team', arguments: { names: ['Ada', 'Grace', 'Linus', 'Barbara', 'Ken'] } },
];
const quiet = { info: () => undefined, warn: () => undefined, error: console.error };

/** The app of this scenario (`scenario.js stdio-app <on|off>`): the hello toolset over stdio, with the stdio fast path on or off. */
export function startStdioApp(fastPath: string | undefined): void {
  const definition = buildServer({ name: 'hello', version: '1', toolsets: [HelloToolset], logger: quiet });
  void serveStdio(definition, { fastPath: fastPath !== 'off' }).inputEnded.then(() => process.exit(0));
}

interface Side {
  client: Client;
  pid: number;
}

async function open(fastPath: 'on' | 'off', era: 'legacy' | 'modern'): Promise<Side> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(__dirname, '../scenario.js'), 'stdio-app', fastPath], stderr: 'ignore' });
  // The SDK's client speaks 2025-11-25 over stdio unless pinned to 2026-07-28.
  const client = new Client({ name: 'bench', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/** Wall µs per call and the app's CPU µs per call, over `calls` sequential calls. */
async function timed(side: Side, call: (typeof CALLED)[number], calls: number): Promise<{ wall: number; cpu: number }> {
  const cpu = processCpuMicros(side.pid);
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await side.client.callTool(call);
    if (result.isError) throw new Error(`${call.name} failed: ${JSON.stringify(result.content)}`);
  }
  return { wall: ((performance.now() - started) * 1000) / calls, cpu: (processCpuMicros(side.pid) - cpu) / calls };
}

/**
 * Scenario: a local tool over stdio, served by the stdio fast path against the SDK's path (the
 * same app, `fastPath: false`), side by side: two app processes per client era, the SDK's client
 * calling each in turn, alternating which goes first, round after round; wall time per call and
 * the app's CPU per call (from /proc).
 */
export async function stdioServingScenario(): Promise<ScenarioResult> {
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  const sides: Side[] = [];
  try {
    for (const era of ['legacy', 'modern'] as const) {
      const sdk = await open('off', era);
      const fast = await open('on', era);
      sides.push(sdk, fast);
      for (const call of CALLED) {
        await timed(sdk, call, WARMUP);
        await timed(fast, call, WARMUP);
        const runs: Record<'sdk' | 'fast', { wall: number; cpu: number }[]> = { sdk: [], fast: [] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const which of round % 2 === 0 ? (['sdk', 'fast'] as const) : (['fast', 'sdk'] as const)) runs[which].push(await timed(which === 'sdk' ? sdk : fast, call, CALLS));
        }
        const cpuRatios = runs.fast.map((run, round) => run.cpu / runs.sdk[round]!.cpu);
        const wallRatios = runs.fast.map((run, round) => run.wall / runs.sdk[round]!.wall);
        const band = (ratios: number[]) => [...ratios].sort((a, b) => a - b).slice(1, -1);
        const label = `${call.name}, ${era === 'legacy' ? '2025-11-25' : '2026-07-28'} client`;
        rows.push([
          label,
          fmt(median(runs.sdk.map((run) => run.wall)), 0),
          fmt(median(runs.fast.map((run) => run.wall)), 0),
          ratioWithBand(median(wallRatios), band(wallRatios)),
          fmt(median(runs.sdk.map((run) => run.cpu)), 0),
          fmt(median(runs.fast.map((run) => run.cpu)), 0),
          ratioWithBand(median(cpuRatios), band(cpuRatios)),
        ]);
        verdicts.push({ target: `the app's CPU per call on the fast path < on the SDK's path (${label})`, measured: `${fmt(median(cpuRatios), 2)}× (rounds ${cpuRatios.map((r) => fmt(r, 2)).join(', ')})`, outcome: judge((r) => r < 1, median(cpuRatios), band(cpuRatios)) });
      }
    }
  } finally {
    await Promise.all(sides.map((side) => side.client.close().catch(() => undefined)));
  }
  return {
    scenario: 'stdio-serving',
    title: 'A local tool over stdio: the stdio fast path against the SDK path',
    method: `The hello toolset served over stdio by two app processes per client era, one with the stdio fast path (the default) and one without (\`fastPath: false\`, as MCP_FAST_PATH=off), called by the SDK's v2 client (2025-11-25 over stdio by default; pinned to 2026-07-28 for the modern rows): ${CALLS} sequential calls per side per round after ${WARMUP} to warm up, ${ROUNDS} rounds alternating which side goes first; wall time per call at the client, and the app's CPU per call from /proc. Ratios are fast path / SDK path per round, median (band without the extremes).`,
    headers: ['tool, client', 'SDK path µs per call', 'fast path µs per call', 'fast / SDK (wall)', 'app CPU µs per call, SDK path', 'app CPU µs per call, fast path', 'fast / SDK (CPU)'],
    rows,
    verdicts,
  };
}
