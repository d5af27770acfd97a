// A memory soak of the demo app: steady mixed traffic for SOAK_MINUTES (default 60), the server's
// resident memory sampled every 30 s, then a cool-down with no traffic. It prints each sample and
// a verdict: the baseline after warm-up, the slope over the second half (MiB per hour), and where
// memory settles after the cool-down. Not part of `npm test` (it takes an hour):
//   npx nx run-many -t build -p demo-server @toolsets/testing --outputStyle=static && node tools/soak/soak.mjs
// Traffic, from SOAK_LOOPS loops at once: 2026-07-28 calls (fast path), 2025-era sessions opened,
// used, closed or left to idle out, code-mode programs (plain ones, and ones that hit the CPU,
// memory and type-check limits; idle workers stopped after 60 s), slow tallies (tasks for the SDK client), lists, cards, probes and
// malformed requests. Tasks and rate limits run on Redis (started by the project's own script).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../..');
const { startTestRedis, freePort, modernMeta } = require(resolve(root, 'libs/testing/dist/index.js'));
const { Client: LegacyClient } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport: LegacyTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const minutes = Number(process.env.SOAK_MINUTES ?? 60);
const coolDownS = Number(process.env.SOAK_COOL_DOWN_S ?? 150);
const SAMPLE_MS = 30_000;
const MiB = 1024 * 1024;

const redis = await startTestRedis();
const port = await freePort();
const server = spawn(process.execPath, [resolve(root, 'apps/demo-server/dist/main.js')], {
  env: { ...process.env, PORT: String(port), REDIS_URL: redis.url, MCP_SESSIONS: 'on', CODE_MODE_WORKER_IDLE_MS: '60000', SESSION_IDLE_TIMEOUT_MS: '20000', SESSION_IDLE_UNUSED_MS: '10000', LOG_LEVEL: 'error' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let stderr = '';
server.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
const origin = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (await fetch(`${origin}/ready`).then((r) => r.ok, () => false)) break;
  if (i > 600 || server.exitCode !== null) throw new Error(`The demo app did not start: ${stderr}`);
  await new Promise((r) => setTimeout(r, 100));
}

const rssOf = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) * 1024;
const counts = { requests: 0, unexpected: 0 };
const unexpected = [];
const note = (what, error) => {
  counts.unexpected++;
  if (unexpected.length < 10) unexpected.push(`${what}: ${String(error?.message ?? error).slice(0, 200)}`);
};

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function modern(path, method, params, extra = {}) {
  counts.requests++;
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(params.name && { 'mcp-name': params.name }), ...extra },
    body: JSON.stringify({ jsonrpc: '2.0', id: counts.requests, method, params: { ...params, _meta: modernMeta() } }),
  });
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${response.status} ${text.slice(0, 200)}`);
  return text;
}

const PROGRAMS = [
  'const a = await api.hello.hello({ name: "soak" }); return a.message;',
  'const r = await Promise.all([api.hello.hello({}), api.credential_demo.whoami({})]); return r.length;',
  'let s = 0; for (;;) s++;',
  'const all = []; for (;;) all.push("y".repeat(65536) + all.length);',
  'const m = new Map(); for (let i = 0; ; i++) m.set("k" + i, [i]);',
  'const x: number = "not a number"; return x;',
];

const loops = {
  async fastCalls() {
    await modern('/demo/mcp', 'tools/call', { name: 'hello', arguments: { name: `n${counts.requests % 97}` } });
    await modern('/credential-demo/mcp', 'tools/call', { name: 'whoami', arguments: {} }, { 'x-demo-token': `token-${counts.requests % 13}` });
  },
  async sessions() {
    const client = new LegacyClient({ name: 'soak-2025', version: '0' });
    const transport = new LegacyTransport(new URL(`${origin}/hello/mcp`));
    await client.connect(transport);
    counts.requests += 2;
    for (let i = 0; i < 5; i++) {
      await client.callTool({ name: 'hello', arguments: { name: 'session' } });
      counts.requests++;
    }
    // Most are closed (DELETE), one in five left to idle out on the server (20 s).
    if (Math.random() < 0.8) await transport.terminateSession().catch(() => undefined);
    await client.close();
  },
  async codeMode() {
    const program = PROGRAMS[counts.requests % PROGRAMS.length];
    await modern('/demo/mcp?mode=code', 'tools/call', { name: 'execute', arguments: { program } }, { 'x-demo-token': `caller-${counts.requests % 5}` });
  },
  async tallies() {
    const client = new Client({ name: 'soak-tasks', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/reports/mcp`), { requestInit: { headers: { 'x-reports-key': `key-${counts.requests % 7}` } } }));
    const result = await client.callTool({ name: 'tally', arguments: { items: 1 + (counts.requests % 40), label: `l${counts.requests % 3}` } });
    counts.requests += 2;
    if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 200));
    await client.close();
  },
  async listsAndProbes() {
    await modern('/demo/mcp', 'tools/list', {});
    for (const path of ['/health', '/ready', '/.well-known/mcp/server-card/demo', '/demo/mcp/catalog', '/nope']) {
      counts.requests++;
      const response = await fetch(`${origin}${path}`);
      await response.arrayBuffer();
      if (response.status >= 500) throw new Error(`${path}: ${response.status}`);
    }
    counts.requests++;
    const malformed = await fetch(`${origin}/demo/mcp`, { method: 'POST', headers: HEADERS, body: '{"jsonrpc":"2.0",' });
    await malformed.arrayBuffer();
  },
};

/** Each loop's copies and its pause between steps: steady traffic that leaves the machine a core. */
const PACE = { fastCalls: [3, 10], sessions: [1, 300], codeMode: [2, 50], tallies: [1, 100], listsAndProbes: [1, 100] };
const deadline = Date.now() + minutes * 60_000;
const running = Object.entries(loops).flatMap(([name, step]) =>
  Array.from({ length: PACE[name][0] }, async () => {
    while (Date.now() < deadline) {
      await step().catch((error) => note(name, error));
      await new Promise((r) => setTimeout(r, PACE[name][1]));
    }
  }),
);

const samples = [];
const started = Date.now();
const sample = () => {
  const rss = rssOf();
  samples.push({ s: Math.round((Date.now() - started) / 1000), rss });
  console.log(`${String(samples.at(-1).s).padStart(5)} s  rss ${(rss / MiB).toFixed(1).padStart(7)} MiB  requests ${counts.requests}  unexpected ${counts.unexpected}`);
};
console.log(`soak: ${minutes} min of traffic on ${origin}, then ${coolDownS} s without; baseline before traffic ${(rssOf() / MiB).toFixed(1)} MiB`);
const before = rssOf();
const timer = setInterval(sample, SAMPLE_MS);
await Promise.all(running);
clearInterval(timer);
sample();
await new Promise((r) => setTimeout(r, coolDownS * 1000));
const after = rssOf();

/** Least-squares slope of RSS over time, in MiB per hour. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.s, 0) / n;
  const my = points.reduce((a, p) => a + p.rss, 0) / n;
  const num = points.reduce((a, p) => a + (p.s - mx) * (p.rss - my), 0);
  const den = points.reduce((a, p) => a + (p.s - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 3600 / MiB;
}
const secondHalf = samples.filter((p) => p.s >= (minutes * 60) / 2);
const peak = Math.max(...samples.map((p) => p.rss));
console.log(`\nrequests ${counts.requests}, unexpected errors ${counts.unexpected}${unexpected.length ? `\n  ${unexpected.join('\n  ')}` : ''}`);
console.log(`rss: before traffic ${(before / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, second-half slope ${slope(secondHalf).toFixed(1)} MiB/h, after ${coolDownS} s cool-down ${(after / MiB).toFixed(1)} MiB`);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
await redis.stop?.();
process.exit(0);
