import { request } from 'node:http';
import { httpClient, textOf } from '../support/clients';
import { MCP_HEADERS, rawRequest, rssMiB, toolsCall } from '../support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * The longest a health probe may wait while the calls are refused: before the key limit, one such
 * call stalled the loop 1.1–1.7 s, 16 of them 18 s. The probe's time includes the server receiving
 * and prescanning 16 bodies of 800 KB on a machine shared with the rest of CI (this suite runs
 * beside the run-many): two clean runs of 12 measured 1,058 and 1,117 ms against a 1,000 ms bound,
 * with nothing stalled. 2,000 ms is still a ninth of what the stall this guards against costs.
 */
const STALL_BOUND_MS = 2_000;
/** Resident memory the server may reach while refusing them (it used 460 MB before). */
const RSS_BOUND_MIB = 300;

/** `{"0":0,"1":0,…}` with `count` keys in base 36: about 9 bytes a key, so 96,000 keys fit in the 1 MiB body limit. */
function undeclaredKeys(count: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [i.toString(36), 0]));
}

/** Probes `/health` back to back until `stop` resolves; returns the slowest answer in ms. */
async function slowestProbe(origin: string, stop: Promise<unknown>): Promise<number> {
  let done = false;
  void stop.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    await new Promise<void>((answered, fail) => request(`${origin}/health`, (res) => res.resume().on('end', answered)).on('error', fail).end());
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}

describe('calls with a hundred thousand undeclared keys (credential-demo app, default limits)', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess(appMain('credential-demo-server'));
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it(`refuses 16 such calls at once without stalling the server: health answers within ${STALL_BOUND_MS} ms, memory under ${RSS_BOUND_MIB} MiB`, async () => {
    const body = toolsCall('whoami', undeclaredKeys(96_000));
    expect(body.length).toBeGreaterThan(800_000);
    let peak = rssMiB(server.child.pid!);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.child.pid!))), 20);
    const calls = Promise.all(Array.from({ length: 16 }, () => rawRequest(server.origin, '/mcp', { headers: { ...MCP_HEADERS, 'x-demo-token': 't' }, body })));
    const slowest = await slowestProbe(server.origin, calls);
    clearInterval(sampler);
    for (const answer of await calls) {
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('an object with far more keys than this server accepts in arguments (MAX_ARGUMENT_ITEMS)');
    }
    expect(slowest).toBeLessThan(STALL_BOUND_MS);
    expect(peak).toBeLessThan(RSS_BOUND_MIB);
  });

  it.each(['modern', 'legacy'] as const)('answers a %s call with more keys than MAX_ARGUMENT_ITEMS, below what the body prescan refuses, naming 10 of them and counting the rest', async (era) => {
    const client = await httpClient(era, `${server.origin}/mcp`, { 'x-demo-token': 't' });
    const result = await client.callTool({ name: 'whoami', arguments: undeclaredKeys(20_000) });
    await client.close();
    expect(result['isError']).toBe(true);
    expect(textOf(result)).toBe("Invalid arguments for tool 'whoami':\n- The arguments have 20000 keys; this server accepts at most 10000 in one object: '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' and 19990 more.");
  });
});
