import { resolve } from 'node:path';
import { Agent, request } from 'node:http';
import { httpClient, type AnyClient, type Era } from '../support/clients';
import { MCP_HEADERS, toolsCall } from '../support/raw-http';
import { appMain, logMessage, startServerProcess } from '../support/server-process';

const slowServer = resolve(__dirname, '../../fixtures/slow-server.cjs');

/** The drain's quiet window by default (`DRAIN_QUIET_MS`, libs/core/src/transport/serving-limits.ts). */
const QUIET_MS = 250;

/** A POST over a given keep-alive agent; resolves with the status and Connection header (or the network error's code). */
function post(origin: string, agent: Agent, body: string): Promise<string> {
  return new Promise((done) => {
    const req = request(`${origin}/mcp`, { method: 'POST', agent, headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18' } }, (res) => {
      res.resume();
      res.on('end', () => done(`${res.statusCode} ${res.headers.connection}`));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end(body);
  });
}

describe('the drain on SIGTERM loses no call', () => {
  it('answers 300 calls in flight at SIGTERM, from clients of both eras, then exits 0', async () => {
    const server = await startServerProcess(slowServer, { SLOW_MS: '1500' });
    const clients: AnyClient[] = await Promise.all(
      Array.from({ length: 300 }, (_, i) => httpClient((i % 2 === 0 ? 'modern' : 'legacy') as Era, `${server.origin}/mcp`)),
    );
    const calls = clients.map((client) => client.callTool({ name: 'slow', arguments: {} }).then((r) => r['structuredContent'], (e: Error) => e.message));
    await server.stderrLines('slow started', 300, 30_000);
    server.child.kill('SIGTERM');
    const results = await Promise.all(calls);
    expect(results.filter((r) => JSON.stringify(r) !== JSON.stringify({ message: 'finished' }))).toEqual([]);
    expect(await server.exited).toBe(0);
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  });

  it('answers requests that arrive on idle keep-alive connections just after SIGTERM', async () => {
    const server = await startServerProcess(appMain('hello-server'));
    const agent = new Agent({ keepAlive: true, maxSockets: 300 });
    const call = toolsCall('hello', { name: 'Ada' });
    // 300 connections, each used once and now idle in the agent's pool.
    expect(new Set(await Promise.all(Array.from({ length: 300 }, () => post(server.origin, agent, call))))).toEqual(new Set(['200 keep-alive']));
    // New connections are refused after SIGTERM (a balancer sends them elsewhere); reuse only the idle ones.
    const idle = Object.values(agent.freeSockets).reduce((sum, sockets) => sum + (sockets?.length ?? 0), 0);
    expect(idle).toBeGreaterThan(100);
    server.child.kill('SIGTERM');
    const after = await Promise.all(Array.from({ length: idle }, () => post(server.origin, agent, call)));
    // Those the server read before it saw the signal keep their connection; the rest say close.
    expect(after.filter((answer) => !/^200 (close|keep-alive)$/.test(answer))).toEqual([]);
    expect(await server.exited).toBe(0);
    agent.destroy();
  });

  it('keeps accepting connections while every connection carries a call, and stops once two are idle', async () => {
    const server = await startServerProcess(slowServer, { SLOW_MS: '1500' });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const busy = new Agent({ keepAlive: true, maxSockets: 3 });
    const slowCalls = Array.from({ length: 3 }, (_, i) => post(server.origin, busy, toolsCall('slow', {}, 10 + i)));
    await server.stderrLines('slow started', 3);
    server.child.kill('SIGTERM');
    await server.stderrLines(logMessage('draining in-flight calls before exit'));
    // A balancer with no idle connection to this replica opens a new one: the listener is still
    // open, so it is answered rather than reset in the kernel's queue.
    const fresh = new Agent({ keepAlive: false });
    expect(await post(server.origin, fresh, list)).toMatch(/^200 /);
    expect(await Promise.all(slowCalls)).toEqual(Array(3).fill('200 keep-alive'));
    // Once those connections are idle and no new one has come for DRAIN_QUIET_MS (250 ms), the
    // listener closes: new connections are refused, which a balancer retries elsewhere.
    let answer = '';
    for (const until = Date.now() + 3_000; Date.now() < until && answer !== 'ECONNREFUSED'; ) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      answer = await post(server.origin, fresh, list);
    }
    expect(answer).toBe('ECONNREFUSED');
    busy.destroy();
    expect(await server.exited).toBe(0);
  });

  it('loses none of 300 calls on fresh connections when SIGTERM comes while they are still arriving', async () => {
    const server = await startServerProcess(appMain('hello-server'));
    const fresh = new Agent({ keepAlive: false, maxSockets: Infinity });
    const call = toolsCall('hello', { name: 'Ada' });
    const answers: Promise<string>[] = [];
    const sentAt: number[] = [];
    let sigterm = Infinity;
    // One new connection every 2 ms or so, SIGTERM after the 30th: the listener must stay open
    // while they keep coming (a reset or a refused connection is a lost call), and close once they stop.
    for (let i = 0; i < 300; i++) {
      const sent = Date.now();
      sentAt.push(sent);
      answers.push(post(server.origin, fresh, call).then((answer) => (answer.startsWith('200 ') ? answer : `#${i} sent ${sent - sigterm} ms after SIGTERM, ${answer} ${Date.now() - sigterm} ms after`)));
      if (i === 30) {
        sigterm = Date.now();
        server.child.kill('SIGTERM');
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const settled = await Promise.all(answers);
    const lost = settled.filter((answer) => !answer.startsWith('200 '));
    // "Once they stop" is the drain's quiet window (DRAIN_QUIET_MS, 250 ms): when this process was
    // held up longer than that between two sends (a busy machine), the server was right to close,
    // and only the calls after that pause may be refused. Any other loss is the server's.
    const firstLost = settled.findIndex((answer) => !answer.startsWith('200 '));
    const pauses = sentAt.map((at, i) => (i > 30 && i <= firstLost ? at - sentAt[i - 1]! : 0));
    const longest = Math.max(0, ...pauses);
    const explained = firstLost !== -1 && longest >= QUIET_MS * 0.9 && settled.slice(pauses.indexOf(longest)).every((answer) => answer.startsWith('200 ') || answer.includes('ECONNREFUSED'));
    // Which calls were lost and when, and what the server said: a loss here must be explainable from the report alone.
    const said = lost.length > 0 && !explained ? server.stderr().split('\n').slice(-20) : [];
    if (explained) console.log(`drain under a busy machine: this process paused ${longest} ms between two sends, and the ${lost.length} calls after the pause were refused, as the quiet window says`);
    expect({ lost: explained ? 0 : lost.length, first: explained ? [] : lost.slice(0, 5), said }).toEqual({ lost: 0, first: [], said: [] });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).not.toContain('some may have been reset');
  });

  it('loses none of the calls 300 clients send back to back on their kept-alive connections when SIGTERM comes', async () => {
    const server = await startServerProcess(appMain('hello-server'));
    const call = toolsCall('greet_team', { names: ['Ada', 'Grace', 'Edsger'] });
    const failures: string[] = [];
    let answered = 0;
    let connected = 0;
    let allConnected!: () => void;
    const everyoneIn = new Promise<void>((resolve) => (allConnected = resolve));
    // Each client reuses its one connection, as the SDK clients' fetch and a proxy's upstream keep-alive do,
    // until the server says close; then it is done (a balancer would send its next call to another replica).
    const client = async (): Promise<void> => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // Every connection opened and used once first: a burst of new connections under load is the fresh-connection test's case.
        expect(await post(server.origin, agent, call)).toBe('200 keep-alive');
        if (++connected === 300) allConnected();
        await everyoneIn;
        for (const until = Date.now() + 30_000; Date.now() < until; ) {
          const answer = await post(server.origin, agent, call);
          if (!answer.startsWith('200 ')) return void failures.push(answer);
          answered++;
          if (answer === '200 close') return;
        }
      } finally {
        agent.destroy();
      }
    };
    const clients = Array.from({ length: 300 }, client);
    await everyoneIn;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.child.kill('SIGTERM');
    await Promise.all(clients);
    expect(answered).toBeGreaterThan(300);
    expect({ lost: failures.length, kinds: [...new Set(failures)] }).toEqual({ lost: 0, kinds: [] });
    expect(await server.exited).toBe(0);
  });

  it('loses none of the calls 300 kept-alive clients send when SIGTERM comes while their connections are still opening', async () => {
    // Load that never pauses (these clients even open new connections as they go): after half of
    // DRAIN_TIMEOUT_MS every answer closes its connection while the listener stays open.
    // A server cannot tell a burst of new connections that ended from a client that stalled in the
    // middle of one: DRAIN_QUIET_MS is that setting. At its default (250 ms) a loaded CI machine
    // stalled this test's client process longer, its staggered connects came in two bunches 509 and
    // 572 ms after SIGTERM, just after the listener closed, and 237 calls were reset. Here it is
    // longer than any stall the machine shows, so the test measures the drain, not the machine.
    const server = await startServerProcess(appMain('hello-server'), { DRAIN_QUIET_MS: '3000' });
    const call = toolsCall('greet_team', { names: ['Ada', 'Grace', 'Edsger'] });
    const failures: string[] = [];
    let answered = 0;
    const started = Date.now();
    // Each client opens its connection at its own moment over two seconds (SIGTERM comes after one), then
    // calls back to back on it until the server says close, as a balancer's upstream keep-alive does.
    const client = async (i: number): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, Math.floor((i * 2_000) / 300)));
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const until = started + 30_000; Date.now() < until; ) {
          const answer = await post(server.origin, agent, call);
          if (!answer.startsWith('200 ')) return void failures.push(`${answer} ${answered === 0 ? 'first call' : 'later call'} ${Date.now() - sigterm} ms after SIGTERM`);
          answered++;
          if (answer === '200 close') return;
        }
      } finally {
        agent.destroy();
      }
    };
    let sigterm = Infinity;
    const clients = Array.from({ length: 300 }, (_, i) => client(i));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    sigterm = Date.now();
    server.child.kill('SIGTERM');
    await Promise.all(clients);
    expect(answered).toBeGreaterThan(300);
    const drainSaid = server.stderr().split('\n').filter((line) => line.includes('"warn"'));
    expect({ lost: failures.length, failures: failures.slice(0, 10), drainSaid }).toEqual({ lost: 0, failures: [], drainSaid: [] });
    expect(await server.exited).toBe(0);
  });

  it('turns readiness to 503 at once and keeps serving through DRAIN_DELAY_MS', async () => {
    const server = await startServerProcess(appMain('hello-server'), { DRAIN_DELAY_MS: '1500' });
    expect((await fetch(`${server.origin}/ready`)).status).toBe(200);
    server.child.kill('SIGTERM');
    let ready = 0;
    for (const until = Date.now() + 1000; Date.now() < until && ready !== 503; ) ready = (await fetch(`${server.origin}/ready`)).status;
    expect(ready).toBe(503);
    // Connections stay open through the delay: a balancer keeps reusing them instead of opening new
    // ones, which the listener's close would reset with their requests already sent.
    const health = await fetch(`${server.origin}/health`);
    expect(health.headers.get('connection')).toBe('keep-alive');
    expect(await health.json()).toMatchObject({ status: 'draining' });
    const client = await httpClient('modern', `${server.origin}/mcp`);
    expect((await client.callTool({ name: 'hello', arguments: {} }))['structuredContent']).toEqual({ message: 'Hello, world!' });
    await client.close();
    expect(await server.exited).toBe(0);
  });
});
