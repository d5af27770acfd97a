import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { UpstreamConnection } from '@toolsets/mcp-upstream';
import { freePort } from '@toolsets/testing';
import { startChild } from '../harness/ready-child';
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
  return clientLeg(client, () => client.close());
}

function clientLeg(client: Client, close: () => Promise<void>): Leg {
  return {
    call: async () => {
      const result = await client.callTool(SUM);
      if (result.isError) throw new Error('get-sum failed');
    },
    close,
  };
}

/** The SDK's client as libs/mcp-upstream connects it to an HTTP upstream: node:http with kept-alive sockets, a POST's event stream holding only its answer read as JSON. */
async function upstreamConnectionLeg(url: string): Promise<Leg> {
  const connection = new UpstreamConnection({ name: 'everything', transport: { kind: 'http', url }, secrets: {} }, undefined, { info: () => undefined, warn: () => undefined, error: console.error });
  return clientLeg(await connection.client(AbortSignal.timeout(30_000)), () => connection.close());
}

/** `tools/call` POSTed over node:http on a kept-alive socket, the event stream read whole and its data line parsed: the least an HTTP client can do. */
async function bareHttpLeg(url: string): Promise<Leg> {
  const agent = new Agent({ keepAlive: true });
  const post = (message: object, session?: string) =>
    new Promise<{ session?: string; text: string }>((resolve, reject) => {
      const body = JSON.stringify(message);
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)), ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) };
      const sent = httpRequest(url, { method: 'POST', agent, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => resolve({ session: answer.headers['mcp-session-id'] as string | undefined, text: Buffer.concat(parts).toString('utf8') }));
      });
      sent.on('error', reject);
      sent.end(body);
    });
  const opened = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, opened.session);
  let next = 0;
  return {
    call: async () => {
      const { text } = await post({ jsonrpc: '2.0', id: ++next, method: 'tools/call', params: SUM }, opened.session);
      const data = text.split('\n').find((line) => line.startsWith('data: {'));
      const answer = data && (JSON.parse(data.slice(6)) as { result?: { isError?: boolean } });
      if (!answer || !answer.result || answer.result.isError) throw new Error(`get-sum failed: ${text}`);
    },
    close: async () => agent.destroy(),
  };
}

/** server-everything over streamable HTTP on a free loopback port, once it listens. */
async function httpUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const { child } = await startChild([EVERYTHING, 'streamableHttp'], { PORT: String(port) }, /listening on port \d+/);
  return { url: `http://127.0.0.1:${port}/mcp`, child };
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
 * Scenario: what the app's leg to an upstream costs the app, against the reference server-everything.
 * Over stdio: the SDK's client over its own stdio transport (what libs/mcp-upstream uses), the SDK's
 * client over a transport that only splits lines and parses JSON, and bare JSON-RPC lines answered
 * by id, directly and through a relay process that does nothing else (RELAY). Over streamable HTTP:
 * the SDK's client over its own transport, the same client as libs/mcp-upstream connects it, and a
 * bare POST over node:http. The calling
 * process is the app's stand-in: its CPU per call is what the leg costs an app, its wall time per
 * call the leg's latency; the relayed way's wall time over the direct one is the least any process
 * between a client and an upstream adds. Diagnostic for section 19; no target.
 */
export async function upstreamLegScenario(): Promise<ScenarioResult> {
  const http = await httpUpstream();
  const legs: [string, Leg][] = [
    ["stdio: the SDK's client over its StdioClientTransport", await sdkLeg(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }))],
    ["stdio: the SDK's client over a line transport (split, JSON.parse)", await sdkLeg(lineTransport())],
    ['stdio: bare JSON-RPC lines, answered by id', await bareLeg()],
    ['stdio: bare JSON-RPC lines through a relay process (reads, parses and writes each message on)', await bareLeg(true)],
    ["HTTP: the SDK's client over its StreamableHTTPClientTransport (the platform's fetch)", await sdkLeg(new StreamableHTTPClientTransport(new URL(http.url)))],
    ["HTTP: the SDK's client as libs/mcp-upstream connects it (UpstreamConnection: node:http, a single answer read as JSON)", await upstreamConnectionLeg(http.url)],
    ['HTTP: bare JSON-RPC over node:http (a kept-alive POST, its event stream read whole, JSON.parse)', await bareHttpLeg(http.url)],
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
      title: "19b. An upstream MCP server's leg, stdio four ways and HTTP three: the SDK's client, the SDK's client over bare lines or over libs/mcp-upstream's node:http, bare JSON-RPC, bare lines through a relay process",
      method: `@modelcontextprotocol/server-everything over stdio, and over streamable HTTP on loopback (one server process for the HTTP ways), ${CALLS} sequential get-sum calls per way per round after ${WARMUP} to warm up, ${ROUNDS} rounds in alternating order, in one process (the app's stand-in): its CPU (process.cpuUsage) and wall time per call, median of the rounds (range).`,
      headers: ['leg', 'CPU µs per call', 'wall µs per call'],
      rows: legs.map(([label], index) => [label, band(samples[index]!.cpu), band(samples[index]!.wall)]),
      verdicts: [],
    };
  } finally {
    for (const [, leg] of legs) await leg.close().catch(() => undefined);
    http.child.kill();
  }
}
