import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { buildServer, Field, RequireScopes, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { startTestIssuer } from '@toolsets/testing';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

const ROUNDS = 8;
const CALLS = 3_000;
/** Each round alternates the two servers every this many calls, so a slow moment of the machine falls on both. */
const BATCH = 100;
const FRESH_BATCHES = 20;
const WARMUP_CALLS = 2_000;
/** What checking a token may add to a whole HTTP call (signature, claims, scopes, the token kept from the tool). */
const TARGET = 1.15;

class HelloArgs {
  @Field()
  name!: string;
}

class HelloResult extends ToolResult {}

/** The per-call scenario's tool, behind a scope: with checks on, every call's view is the scoped one. */
@Toolset({ name: 'bench-guarded' })
@RequireScopes('bench:use')
class GuardedHelloToolset {
  @Tool({ description: 'Greet someone by name.', args: HelloArgs, returns: HelloResult })
  hello(args: HelloArgs): HelloResult {
    return { message: `Hello, ${args.name}!` };
  }
}

/** Calls that each bring a token the server has not seen: the full check every time. */
async function perCallFresh(agent: Agent, url: URL, body: string, tokens: readonly string[]): Promise<number> {
  const started = performance.now();
  for (const token of tokens) await call(agent, url, body, token);
  return ((performance.now() - started) * 1000) / tokens.length;
}

/** One `tools/call` over a keep-alive connection, answered in full. */
function call(agent: Agent, url: URL, body: string, token?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        ...(token && { authorization: `Bearer ${token}` }),
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
      res.resume();
      res.once('end', resolve);
    });
    req.end(body);
  });
}

async function perCall(agent: Agent, url: URL, body: string, calls: number, token?: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call(agent, url, body, token);
  return ((performance.now() - started) * 1000) / calls;
}

/**
 * Scenario 10: the cost of checking access tokens. The same one-tool server is served twice in this
 * process, with `auth` (an ES256 token from a loopback issuer, verified with jose, on every call)
 * and without; sequential calls from one keep-alive client, the two in alternating order per round.
 */
export async function authScenario(): Promise<ScenarioResult> {
  const issuer = await startTestIssuer();
  const definition = buildServer({ name: 'bench', version: '1.0.0', toolsets: [GuardedHelloToolset], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  const checked: HttpServerHandle = await serveHttp(definition, { port: 0, auth: { issuer: issuer.issuer }, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  const open: HttpServerHandle = await serveHttp(definition, { port: 0 });
  issuer.audience = checked.mounts[0]!.url;
  const token = await issuer.mint({ subject: 'bench', scopes: ['bench:use'] });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hello', arguments: { name: 'bench' } } });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const urls = { checked: new URL(checked.mounts[0]!.url), open: new URL(open.mounts[0]!.url) };
  await perCall(agent, urls.checked, body, WARMUP_CALLS, token);
  await perCall(agent, urls.open, body, WARMUP_CALLS);
  const times = { checked: [] as number[], open: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const sums = { checked: 0, open: 0 };
    for (let batch = 0; batch < CALLS / BATCH; batch++) {
      for (const which of (round + batch) % 2 === 0 ? (['checked', 'open'] as const) : (['open', 'checked'] as const)) {
        sums[which] += await perCall(agent, urls[which], body, BATCH, which === 'checked' ? token : undefined);
      }
    }
    times.checked.push(sums.checked / (CALLS / BATCH));
    times.open.push(sums.open / (CALLS / BATCH));
  }
  // The first call with each token pays for the whole check (signature, claims): measured apart.
  const fresh = { checked: [] as number[], open: [] as number[] };
  for (let batch = 0; batch < FRESH_BATCHES; batch++) {
    const tokens = await Promise.all(Array.from({ length: BATCH }, (_, i) => issuer.mint({ subject: `fresh-${batch}-${i}`, scopes: ['bench:use'] })));
    fresh.checked.push(await perCallFresh(agent, urls.checked, body, tokens));
    fresh.open.push(await perCall(agent, urls.open, body, BATCH));
  }
  agent.destroy();
  await Promise.all([checked.close(), open.close()]);
  await issuer.close();
  const ratios = times.checked.map((value, round) => value / times.open[round]!);
  const share = median(ratios);
  const band = [...ratios].sort((a, b) => a - b).slice(1, -1);
  return {
    scenario: 'auth',
    title: '10. Checking access tokens on every call',
    method: `The same one-tool server twice in one process, over HTTP with one keep-alive client: with AUTH_ISSUER (an ES256 token from a loopback issuer verified with jose on every call: signature, exp, iss, aud, scopes) and without. ${ROUNDS} rounds of ${CALLS.toLocaleString('en-US')} sequential tools/call to each, alternating between the two every ${BATCH} calls; the ratio is paired per round. A token that passed is remembered (by its hash) until its exp, so this is the cost of a client that reuses its token, as clients do.`,
    headers: ['server', 'µs per call (median of rounds)', 'ratio'],
    rows: [
      ['no token checks', fmt(median(times.open), 1), ratio(1)],
      ['token checked on every call (a client reusing its token)', fmt(median(times.checked), 1), ratio(share)],
      ['a token never seen before on every call', fmt(median(fresh.checked), 1), ratio(median(fresh.checked.map((value, i) => value / fresh.open[i]!)))],
    ],
    notes: [
      `A token's first call pays for the ES256 signature check and the claims (+${fmt(median(fresh.checked) - median(fresh.open), 0)} µs here); later calls with the same token find it remembered by its hash until its exp.`,
    ],
    verdicts: [
      {
        target: `checking a token on every call ≤ ${TARGET}× a call without`,
        measured: `${ratioWithBand(share, band)}; +${fmt(median(times.checked) - median(times.open), 1)} µs per call; rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}`,
        outcome: judge((r) => r <= TARGET, share, band),
      },
    ],
  };
}
