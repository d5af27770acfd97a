import { resolve } from 'node:path';
import { rawToolsCall } from '@toolsets/testing';
import { startNginx, type Nginx } from './support/nginx';
import { startServerProcess, type ServerProcess } from './support/server-process';

const slowServer = resolve(__dirname, '../fixtures/slow-server.cjs');

/** The proxy's read timeout, the servers' keepalive interval and the call's length: the call outlasts the timeout, the interval is well inside it. */
const READ_TIMEOUT_S = 3;
const KEEP_ALIVE_MS = 1_000;
const CALL_MS = 6_000;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

async function call(origin: string, era: '2025' | 'modern'): Promise<Answer> {
  const response = await rawToolsCall(origin, era, { tool: 'slow' });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body: await response.text() };
}

/**
 * A call that takes longer than the proxy in front waits in silence (nginx's `proxy_read_timeout`,
 * 60 s by default, here 3 s): the 2025-era answer is an event stream whose headers go at once and
 * which carries a `: keepalive` comment every STREAM_KEEP_ALIVE_MS (15 s by default, here 1 s), on
 * the fast path as on the SDK path, so the proxy never times it out. A 2026-07-28 answer is one
 * JSON body on both paths, so such a call needs a proxy timeout longer than itself (or a task).
 */
describe('a call longer than the read timeout of the proxy in front (nginx)', () => {
  const servers: ServerProcess[] = [];
  const proxies: Nginx[] = [];
  let fastPath: string;
  let sdkPath: string;
  beforeAll(async () => {
    const env = { SLOW_MS: String(CALL_MS), STREAM_KEEP_ALIVE_MS: String(KEEP_ALIVE_MS), DRAIN_DELAY_MS: '0' };
    servers.push(...(await Promise.all([startServerProcess(slowServer, env), startServerProcess(slowServer, { ...env, MCP_FAST_PATH: 'off' })])));
    proxies.push(...(await Promise.all(servers.map((server) => startNginx([Number(new URL(server.origin).port)], { readTimeoutSeconds: READ_TIMEOUT_S })))));
    [fastPath, sdkPath] = proxies.map((proxy) => proxy.origin) as [string, string];
  }, 120_000);
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(
      servers.map(async (server) => {
        server.child.kill('SIGTERM');
        await server.exited;
      }),
    );
  });

  it('reaches a 2025-era client on both paths, as an event stream kept alive until the result, and times out a 2026-07-28 call on both', async () => {
    const [fast2025, sdk2025, fastModern, sdkModern] = await Promise.all([call(fastPath, '2025'), call(sdkPath, '2025'), call(fastPath, 'modern'), call(sdkPath, 'modern')]);
    for (const answer of [fast2025, sdk2025]) {
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBe('text/event-stream');
      // Several keepalives (one a second for six), then the answer.
      expect(answer.body.match(/: keepalive\n\n/g)?.length).toBeGreaterThanOrEqual(2);
      expect(answer.body).toMatch(/event: message\ndata: \{"result":\{.*"structuredContent":\{"message":"finished"\}.*"id":1\}\n\n$/);
    }
    expect(fast2025.body.replace(/: keepalive\n\n/g, '')).toBe(sdk2025.body.replace(/: keepalive\n\n/g, ''));
    expect([fastModern.status, sdkModern.status]).toEqual([504, 504]);
    expect(proxies.map((proxy) => proxy.errors().match(/upstream timed out/g)?.length ?? 0)).toEqual([1, 1]);
  }, 60_000);
});
