import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildServer, serveHttp, serveStdio } from '@toolsets/core';
import { EverythingToolset, EVERYTHING_UPSTREAM } from '@toolsets/everything';
import { HelloToolset } from '@toolsets/hello';
import { closeUpstreams, McpUpstream, UpstreamConnection, type UpstreamTransportSettings } from '@toolsets/mcp-upstream';
import { freePort } from '@toolsets/testing';
import { container } from 'tsyringe';
import { childPids, processCpuMicros, processRssBytes } from '../harness/process-cpu';
import { startChild } from '../harness/ready-child';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { settledMemory } from '../harness/settled-memory';
import { median } from '../harness/stats';

const ROUNDS = 8;
const CALLS = 400;
const WARMUP = 200;
/** Added latency of a proxied call over the direct one, as the issue sets it. */
const LATENCY_TARGET = 1.2;
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const SUM = { name: 'get-sum', arguments: { a: 2, b: 40 } };
const quiet = { info: () => undefined, warn: () => undefined, error: console.error };

/**
 * The toolsets app of this scenario, in a process of its own (`scenario.js upstream-mcp-app <stdio|url>`),
 * so its CPU is read alone: the everything toolset (generated from the reference server) beside hello.
 */
export async function startUpstreamApp(upstream: string, over = 'http', fastPath = 'on'): Promise<void> {
  if (upstream !== 'stdio') {
    // The library was generated from stdio; an app points it at an HTTP deployment of the same server in code.
    container.register(EVERYTHING_UPSTREAM, { useValue: new McpUpstream({ name: 'everything', transport: { kind: 'http', url: upstream }, secrets: {} }, { kind: 'legacy' }, quiet) });
  } else process.env['EVERYTHING_MCP_COMMAND'] = `${process.execPath} ${EVERYTHING} stdio`;
  const definition = buildServer({ name: 'app', version: '1', toolsets: [EverythingToolset, HelloToolset], logger: quiet });
  if (over === 'stdio') {
    // As startApp does: its client closing stdin ends the app, whose upstream's child would keep it running.
    void serveStdio(definition, { fastPath: fastPath !== 'off' }).inputEnded.then(() => closeUpstreams());
    return;
  }
  const handle = await serveHttp(definition, { port: 0, logger: quiet });
  console.log(`MOUNT ${handle.mounts[0]!.url}`);
}

async function connect(transport: StreamableHTTPClientTransport | StdioClientTransport): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

/** µs per call of `calls` calls spread over `clients` (each sequential), and the app's CPU µs per call. */
async function timed(clients: readonly Client[], call: { name: string; arguments: object }, calls: number, app?: number): Promise<{ latency: number; cpu: number }> {
  const cpuBefore = app === undefined ? 0 : processCpuMicros(app);
  const started = performance.now();
  const each = Math.ceil(calls / clients.length);
  await Promise.all(clients.map(async (client) => {
    for (let i = 0; i < each; i++) {
      const result = await client.callTool(call as { name: string; arguments: Record<string, unknown> });
      if (result.isError) throw new Error(`${call.name} failed: ${JSON.stringify(result.content)}`);
    }
  }));
  const elapsed = (performance.now() - started) * 1000;
  return { latency: (elapsed * clients.length) / (each * clients.length), cpu: app === undefined ? 0 : (processCpuMicros(app) - cpuBefore) / (each * clients.length) };
}

/**
 * What one upstream connection holds in the process that makes it (an app's: one per upstream, or one
 * per distinct caller credential, at most 64): `counts` connections opened one after another, each
 * connected and called once, memory read after a full collection at each count; bytes per
 * connection from the first count to the last.
 */
async function memoryPerConnection(transport: UpstreamTransportSettings, counts: readonly number[]): Promise<{ heap: number; rss: number; childRss: number; samples: string }> {
  const connections: UpstreamConnection[] = [];
  const samples: { count: number; heap: number; rss: number }[] = [];
  const childrenBefore = new Set(childPids());
  let childRss = 0;
  try {
    for (const count of counts) {
      while (connections.length < count) {
        const connection = new UpstreamConnection({ name: `memory-${connections.length}`, transport, secrets: {} }, undefined, quiet);
        connections.push(connection);
        const result = await (await connection.client(AbortSignal.timeout(30_000))).callTool(SUM);
        if (result.isError) throw new Error(`get-sum failed: ${JSON.stringify(result.content)}`);
      }
      samples.push({ count, ...(await settledMemory()) });
    }
    // A stdio upstream's own process: the children these connections started.
    const started = childPids().filter((pid) => !childrenBefore.has(pid));
    childRss = started.length === 0 ? 0 : started.reduce((sum, pid) => sum + processRssBytes(pid), 0) / started.length;
  } finally {
    await Promise.all(connections.map((connection) => connection.close()));
  }
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const per = (key: 'heap' | 'rss') => (last[key] - first[key]) / (last.count - first.count);
  return { heap: per('heap'), rss: per('rss'), childRss, samples: samples.map((sample) => `${sample.count}: heap ${fmt(sample.heap / 2 ** 20, 1)} MiB, RSS ${fmt(sample.rss / 2 ** 20, 1)} MiB`).join('; ') };
}

interface Pair {
  label: string;
  direct: Client[];
  through: Client[];
  /** The app process the through calls reach, whose CPU is read. */
  app: number;
}

/**
 * Scenario: an upstream MCP server served through toolsets. The reference server-everything, over
 * stdio and over streamable HTTP, called directly by the SDK's client and through a toolsets app that
 * serves it as the generated everything toolset (one shared upstream connection), side by side in
 * each round; and the same app's local hello tool, for the server CPU a local call costs.
 */
export async function upstreamMcpScenario(): Promise<ScenarioResult> {
  const children: ChildProcess[] = [];
  const clients: Client[] = [];
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  const notes: string[] = [];
  try {
    const port = await freePort();
    const httpUpstream = await startChild([EVERYTHING, 'streamableHttp'], { PORT: String(port) }, /listening on port \d+/);
    children.push(httpUpstream.child);
    const upstreamUrl = `http://127.0.0.1:${port}/mcp`;
    const apps: Record<'http', { child: ChildProcess; url: string }> = {} as never;
    for (const [kind, argument] of [['http', upstreamUrl]] as const) {
      const app = await startChild([join(__dirname, '../scenario.js'), 'upstream-mcp-app', argument], {}, /MOUNT \S+/);
      children.push(app.child);
      apps[kind] = { child: app.child, url: app.line.split(' ')[1]! };
    }
    // MCP_FAST_PATH=off runs the stdio app without its stdio fast path (the client starts it with an environment of its own).
    const stdioAppTransport = new StdioClientTransport({ command: process.execPath, args: [join(__dirname, '../scenario.js'), 'upstream-mcp-app', 'stdio', 'stdio', process.env['MCP_FAST_PATH'] === 'off' ? 'off' : 'on'], stderr: 'ignore' });
    const stdioApp = await connect(stdioAppTransport);
    const stdioAppPid = stdioAppTransport.pid!;
    const viaApp = async (kind: 'http', n: number) => Promise.all(Array.from({ length: n }, () => connect(new StreamableHTTPClientTransport(new URL(apps[kind].url)))));
    const directStdio = await connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
    const httpApp = apps.http.child.pid!;
    const pairs: Pair[] = [
      // Stdio on both legs: the client starts the app over stdio as it would start the upstream.
      { label: 'stdio upstream, 1 client', direct: [directStdio], through: [stdioApp], app: stdioAppPid },
      // A stdio connection has one client; 8 callers on it are a host's parallel tool calls, 8 in flight on each leg.
      { label: 'stdio upstream, 8 callers on one connection', direct: Array.from({ length: 8 }, () => directStdio), through: Array.from({ length: 8 }, () => stdioApp), app: stdioAppPid },
      { label: 'HTTP upstream, 1 client', direct: [await connect(new StreamableHTTPClientTransport(new URL(upstreamUrl)))], through: await viaApp('http', 1), app: httpApp },
      { label: 'HTTP upstream, 8 clients', direct: await Promise.all(Array.from({ length: 8 }, () => connect(new StreamableHTTPClientTransport(new URL(upstreamUrl))))), through: await viaApp('http', 8), app: httpApp },
    ];
    for (const pair of pairs) clients.push(...new Set([...pair.direct, ...pair.through]).values());
    clients.push(stdioApp);
    // The first call connects the app's one upstream connection (a stdio child).
    await timed(pairs[0]!.through, SUM, 1);

    // Memory per upstream connection, in this process: a slope over counts of connections, so what the bench holds besides stays out of it.
    const memoryRuns: [string, UpstreamTransportSettings, number[]][] = [
      ['HTTP', { kind: 'http', url: upstreamUrl }, [0, 16, 64]],
      ['stdio', { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, [0, 8]],
    ];
    for (const [label, transport, counts] of memoryRuns) {
      const memory = await memoryPerConnection(transport, counts);
      notes.push(
        `Memory per ${label} upstream connection, in the process that opens it (the connections opened one after another in the bench's own process, each connected and called once, read after a full collection at ${counts.join(', ')} connections): heap ${fmt(memory.heap / 1024, 0)} KiB and resident ${fmt(memory.rss / 1024, 0)} KiB per connection (${memory.samples})${memory.childRss > 0 ? `; each stdio upstream is a process of its own besides, ${fmt(memory.childRss / 2 ** 20, 1)} MiB resident for this server` : ''}.`,
      );
    }
    const locals: { pair: Pair; proxiedCpu: number; cpu: number; latency: number }[] = [];
    for (const pair of pairs) {
      const { app } = pair;
      await timed(pair.direct, SUM, WARMUP);
      await timed(pair.through, SUM, WARMUP, app);
      const direct: number[] = [];
      const through: number[] = [];
      const throughCpu: number[] = [];
      const localCpu: number[] = [];
      const localLatency: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['direct', 'through'] : ['through', 'direct'];
        for (const which of order) {
          if (which === 'direct') direct.push((await timed(pair.direct, SUM, CALLS)).latency);
          else {
            const measured = await timed(pair.through, SUM, CALLS, app);
            through.push(measured.latency);
            throughCpu.push(measured.cpu);
          }
        }
        // The app's local hello, called the same way: the CPU a local call costs beside a proxied one.
        const local = await timed(pair.through, { name: 'hello', arguments: { name: 'Ada' } }, CALLS, app);
        localCpu.push(local.cpu);
        localLatency.push(local.latency);
      }
      const ratios = through.map((value, round) => value / direct[round]!);
      const share = median(ratios);
      const band = [...ratios].sort((a, b) => a - b).slice(1, -1);
      rows.push([pair.label, fmt(median(direct), 0), fmt(median(through), 0), ratioWithBand(share, band), fmt(median(throughCpu), 0)]);
      // As issue 71 words it: the latency toolsets adds (through − direct) against the direct call's.
      const added = ratios.map((r) => r - 1);
      const addedBand = [...added].sort((a, b) => a - b).slice(1, -1);
      verdicts.push({
        target: `added latency through toolsets ≤ ${LATENCY_TARGET}× the direct call's (${pair.label})`,
        measured: `${fmt(median(added), 2)}× the direct call added (band ${fmt(Math.min(...addedBand), 2)}–${fmt(Math.max(...addedBand), 2)}): through ${ratio(share)} of the direct call; rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}`,
        outcome: judge((r) => r <= LATENCY_TARGET, median(added), addedBand),
      });
      verdicts.push({
        target: `the whole call through toolsets ≤ ${LATENCY_TARGET}× the direct call's (${pair.label}; the stricter reading, a second hop included)`,
        measured: `${ratio(share)} of the direct call`,
        outcome: judge((r) => r <= LATENCY_TARGET, share, band),
      });
      locals.push({ pair, proxiedCpu: median(throughCpu), cpu: median(localCpu), latency: median(localLatency) });
    }
    for (const { pair, proxiedCpu, cpu, latency } of locals) {
      const how = pair.label.replace(' upstream', '');
      rows.push([`the app's local hello tool (${how})`, '', fmt(latency, 0), '', fmt(cpu, 0)]);
      const added = proxiedCpu - cpu;
      verdicts.push({
        target: `the app's added CPU per proxied call (over its local tool's) ≤ the CPU of its local tool call (${how}, the same transport on both legs)`,
        measured: `${fmt(proxiedCpu, 0)} µs per proxied call, ${fmt(cpu, 0)} µs per local call: ${fmt(added, 0)} µs added (${ratio(added / cpu)} of a local call)`,
        outcome: added <= cpu ? 'pass' : 'miss',
      });
    }
    return {
      scenario: 'upstream-mcp',
      title: 'An upstream MCP server through toolsets: the reference server-everything, direct and proxied',
      method: `@modelcontextprotocol/server-everything ${require('@modelcontextprotocol/server-everything/package.json').version} over stdio and streamable HTTP on loopback. Each pair makes ${CALLS} get-sum calls per round with the SDK's v2 client: directly to the upstream, and through a toolsets app in a process of its own (the generated everything toolset, one upstream connection for all its callers), in alternating order over ${ROUNDS} rounds; the app's CPU is read from /proc around its calls. Over stdio, 1 client makes its calls one after another, and 8 callers share one connection on each leg (a host's parallel tool calls: 8 in flight). For each pair the app's local hello tool is called the same way, for the CPU a local call costs.`,
      headers: ['upstream', 'direct µs per call', 'through toolsets µs per call', 'through / direct', "app CPU µs per call"],
      rows,
      verdicts,
      notes,
    };
  } finally {
    await Promise.all([...new Set(clients)].map((client) => client.close().catch(() => undefined)));
    for (const child of children) child.kill();
  }
}
