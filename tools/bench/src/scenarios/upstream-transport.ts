import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { interleave, type Contender } from '../harness/interleave';
import { fmt, judge, ratio, ratioWithBand, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

const ROUNDS = 10;
const CALLS = 2_000;
const WARMUP = 1_000;
/** The cap a generated tool reads a body up to (ITEMS_MAX_RESPONSE_BYTES's default). */
const MAX_BYTES = 256 * 1024;

/** The parts of @toolsets/openapi's transport used here (its module is internal: loaded from the build). */
interface Transport {
  send(url: URL, request: { method: string; headers: Record<string, string>; cancel: { aborted: boolean; reason: unknown; onAbort(listener: () => void): void } }): Promise<{ status: number; read(maxBytes: number): Promise<{ bytes: Buffer }> }>;
  close(): void;
}
const { UpstreamTransport } = require(join(__dirname, '../../../../libs/openapi/dist/upstream-transport.js')) as { UpstreamTransport: new () => Transport };

const NEVER = { aborted: false, reason: undefined, onAbort: () => undefined };

/** An upstream on loopback answering every GET with the same JSON, as a small REST API does. */
async function startUpstream(body: string): Promise<{ server: Server; url: URL }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/pet/7`) };
}

function nodeHttpContender(url: URL): Contender & { close(): void } {
  const transport = new UpstreamTransport();
  return {
    name: 'node:http (UpstreamTransport)',
    async run(calls) {
      for (let i = 0; i < calls; i++) {
        const answer = await transport.send(url, { method: 'GET', headers: { accept: 'application/json' }, cancel: NEVER });
        JSON.parse((await answer.read(MAX_BYTES)).bytes.toString('utf-8'));
      }
    },
    close: () => transport.close(),
  };
}

function undiciContender(url: URL): Contender & { close(): Promise<void> } {
  const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
  return {
    name: 'undici.request',
    async run(calls) {
      for (let i = 0; i < calls; i++) {
        const { body } = await request(url, { method: 'GET', headers: { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' }, dispatcher });
        // The same capped read the transport does.
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of body) {
          size += (chunk as Buffer).length;
          if (size > MAX_BYTES) break;
          chunks.push(chunk as Buffer);
        }
        JSON.parse(Buffer.concat(chunks).toString('utf-8'));
      }
    },
    close: () => dispatcher.close(),
  };
}

/**
 * Scenario 12: the generated tools' upstream transport. The hand-written `node:http` transport of
 * @toolsets/openapi against undici's `request` (the library under Node's fetch), each doing one GET
 * and a capped body read and parse against the same keep-alive upstream on loopback.
 */
export async function upstreamTransportScenario(): Promise<ScenarioResult> {
  const pet = JSON.stringify({ id: 7, name: 'Rex', photoUrls: ['https://example.com/rex.jpg'], tags: [{ id: 1, name: 'good' }], status: 'available' });
  const page = JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id, name: `pet ${id}`, photoUrls: [], status: 'available' })));
  const rows: string[][] = [];
  const verdicts: ScenarioResult['verdicts'] = [];
  for (const [label, body] of [
    [`one pet (${Buffer.byteLength(pet)} bytes)`, pet],
    [`a page of 200 pets (${Buffer.byteLength(page).toLocaleString('en-US')} bytes)`, page],
  ] as const) {
    const upstream = await startUpstream(body);
    const node = nodeHttpContender(upstream.url);
    const undici = undiciContender(upstream.url);
    const times = await interleave([node, undici], { rounds: ROUNDS, calls: CALLS, warmup: WARMUP });
    node.close();
    await undici.close();
    await new Promise((resolve) => upstream.server.close(resolve));
    const ratios = times.get(undici.name)!.map((value, round) => value / times.get(node.name)![round]!);
    const share = median(ratios);
    const band = [...ratios].sort((a, b) => a - b).slice(1, -1);
    rows.push([label, fmt(median(times.get(node.name)!), 1), fmt(median(times.get(undici.name)!), 1), ratioWithBand(share, band)]);
    verdicts.push({
      target: `node:http transport at least as fast as undici.request (${label}): undici ≥ 1.00× its time`,
      measured: `undici.request ${ratio(share)} of node:http; rounds ${ratios.map((r) => fmt(r, 2)).join(', ')}`,
      outcome: judge((r) => r >= 1, share, band),
    });
  }
  return {
    scenario: 'upstream-transport',
    title: '12. The generated tools\' upstream transport: node:http or undici',
    method: `One keep-alive upstream on loopback answering every GET with the same JSON. Each contender does ${CALLS.toLocaleString('en-US')} sequential GETs per round, reading the body up to a ${MAX_BYTES / 1024} KiB cap and parsing it: @toolsets/openapi's UpstreamTransport (node:http with a keep-alive Agent) and undici ${require('undici/package.json').version}'s request() with its own Agent. ${ROUNDS} rounds, interleaved, ratios paired per round. Whichever is faster is the one the client keeps.`,
    headers: ['answer', 'node:http µs per call', 'undici µs per call', 'undici / node:http'],
    rows,
    verdicts,
  };
}
