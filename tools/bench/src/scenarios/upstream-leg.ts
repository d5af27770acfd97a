import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fmt, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

const ROUNDS = 6;
const CALLS = 1_000;
const WARMUP = 300;
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
const SUM = { name: 'get-sum', arguments: { a: 2, b: 40 } };

/** A way to make one `tools/call` to the upstream child, and to let the child go. */
interface Leg {
  call(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A process between a client and server-everything that does the least a proxy must: reads each
 * line from either side, parses it, writes it on to the other. Its cost over a direct call is the
 * floor of what any process in between adds (issue 71 §8), whatever it is written with.
 */
const RELAY = `
const { spawn } = require('node:child_process');
const upstream = spawn(process.execPath, [${JSON.stringify(EVERYTHING)}, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
const relay = (from, to) => {
  let buffered = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\\n'); end >= 0; end = buffered.indexOf('\\n')) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      to.write(JSON.stringify(message) + '\\n');
    }
  });
};
relay(process.stdin, upstream.stdin);
relay(upstream.stdout, process.stdout);
process.stdin.on('end', () => upstream.kill());
`;

/** Newline-delimited JSON-RPC to a child, read with `JSON.parse` alone: the least a client can do. */
class ChildLines {
  readonly child: ChildProcess;
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  #buffered = '';

  /** server-everything itself, or (`relayed`) a relay process in front of it (RELAY). */
  constructor(relayed = false) {
    this.child = spawn(process.execPath, relayed ? ['-e', RELAY] : [EVERYTHING, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.#buffered += chunk;
      for (let end = this.#buffered.indexOf('\n'); end >= 0; end = this.#buffered.indexOf('\n')) {
        const line = this.#buffered.slice(0, end);
        this.#buffered = this.#buffered.slice(end + 1);
        this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
      }
    });
  }

  send(message: object): void {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  close(): void {
    this.child.kill();
    this.onclose?.();
  }
}

/** `ChildLines` as a transport for the SDK's client: the SDK's protocol without its stdio transport's reading. */
function lineTransport(): Transport {
  const lines = new ChildLines();
  const transport: Transport = {
    start: async () => undefined,
    send: async (message) => lines.send(message),
    close: async () => lines.close(),
  };
  lines.onmessage = (message) => transport.onmessage?.(message);
  lines.onclose = () => transport.onclose?.();
  return transport;
}

async function sdkLeg(transport: Transport): Promise<Leg> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return {
    call: async () => {
      const result = await client.callTool(SUM);
      if (result.isError) throw new Error('get-sum failed');
    },
    close: () => client.close(),
  };
}

/** `tools/call` as JSON lines, answered by id: no schema, no protocol object; through a relay process when `relayed`. */
async function bareLeg(relayed = false): Promise<Leg> {
  const lines = new ChildLines(relayed);
  const waiting = new Map<number, (message: { result?: { isError?: boolean } }) => void>();
  let next = 0;
  lines.onmessage = (message) => {
    const id = (message as { id?: number }).id;
    const resolve = id === undefined ? undefined : waiting.get(id);
    if (!resolve) return;
    waiting.delete(id!);
    resolve(message as never);
  };
  const request = (method: string, params: object) =>
    new Promise<{ result?: { isError?: boolean } }>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      lines.send({ jsonrpc: '2.0', id, method, params });
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  lines.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    call: async () => {
      const answer = await request('tools/call', SUM);
      if (answer.result?.isError) throw new Error('get-sum failed');
    },
    close: async () => lines.close(),
  };
}

const cpuNow = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/** µs of this process's CPU and of wall time per call, over `calls` sequential calls. */
async function timed(leg: Leg, calls: number): Promise<{ cpu: number; wall: number }> {
  const cpu = cpuNow();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await leg.call();
  return { cpu: (cpuNow() - cpu) / calls, wall: ((performance.now() - started) * 1000) / calls };
}

/**
 * Scenario: what the app's leg to a stdio upstream costs the app, three ways, against the reference
 * server-everything: the SDK's client over its own stdio transport (what libs/mcp-upstream uses),
 * the SDK's client over a transport that only splits lines and parses JSON, and bare JSON-RPC lines
 * answered by id, directly and through a relay process that does nothing else (RELAY). The calling
 * process is the app's stand-in: its CPU per call is what the leg costs an app, its wall time per
 * call the leg's latency; the relayed way's wall time over the direct one is the least any process
 * between a client and an upstream adds. Diagnostic for section 19; no target.
 */
export async function upstreamLegScenario(): Promise<ScenarioResult> {
  const legs: [string, Leg][] = [
    ["the SDK's client over its StdioClientTransport", await sdkLeg(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }))],
    ["the SDK's client over a line transport (split, JSON.parse)", await sdkLeg(lineTransport())],
    ['bare JSON-RPC lines, answered by id', await bareLeg()],
    ['bare JSON-RPC lines through a relay process (reads, parses and writes each message on)', await bareLeg(true)],
  ];
  try {
    for (const [, leg] of legs) await timed(leg, WARMUP);
    const samples = legs.map(() => ({ cpu: [] as number[], wall: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order: a machine that slows during a round does not fall on one way alone.
      const order = legs.map((_, index) => index);
      if (round % 2 === 1) order.reverse();
      for (const index of order) {
        const { cpu, wall } = await timed(legs[index]![1], CALLS);
        samples[index]!.cpu.push(cpu);
        samples[index]!.wall.push(wall);
      }
    }
    const band = (values: number[]) => `${fmt(median(values), 0)} (${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)})`;
    return {
      scenario: 'upstream-leg',
      title: "19b. An upstream MCP server's stdio leg, four ways: the SDK's client, the SDK's client over bare lines, bare lines, bare lines through a relay process",
      method: `@modelcontextprotocol/server-everything over stdio, ${CALLS} sequential get-sum calls per way per round after ${WARMUP} to warm up, ${ROUNDS} rounds in alternating order, in one process (the app's stand-in): its CPU (process.cpuUsage) and wall time per call, median of the rounds (range).`,
      headers: ['leg', 'CPU µs per call', 'wall µs per call'],
      rows: legs.map(([label], index) => [label, band(samples[index]!.cpu), band(samples[index]!.wall)]),
      verdicts: [],
    };
  } finally {
    for (const [, leg] of legs) await leg.close().catch(() => undefined);
  }
}
