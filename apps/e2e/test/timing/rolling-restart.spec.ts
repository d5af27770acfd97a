import { accountOf, httpClient, type AnyClient, type Era } from '../support/clients';
import { freePort, startNginx, type Nginx } from '../support/nginx';
import { appMain, startServerProcess, type ServerProcess } from '../support/server-process';

const REPLICAS = 3;
const CLIENTS = 20;
/** Rolling restarts of every replica in one run (ROLLING_ROUNDS=10 measures a rare failure's rate). */
const ROUNDS = Number(process.env['ROLLING_ROUNDS'] ?? 1);

interface Tally {
  ok: number;
  failed: number;
  crossed: number;
  failures: { at: number; error: string }[];
}

/**
 * Three replicas of credential-demo behind nginx (default retry policy), clients of both eras each
 * calling whoami with its own token without pause, and every replica restarted in turn with
 * SIGTERM: no call may fail and no caller may get another caller's answer.
 */
describe('a rolling restart behind nginx', () => {
  const ports: number[] = [];
  const replicas: ServerProcess[] = [];
  let nginx: Nginx;

  const start = (port: number) => startServerProcess(appMain('credential-demo-server'), { PORT: String(port), DRAIN_DELAY_MS: '1000' });

  beforeAll(async () => {
    for (let i = 0; i < REPLICAS; i++) ports.push(await freePort());
    for (const port of ports) replicas.push(await start(port));
    nginx = await startNginx(ports);
  }, 120_000);
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop().catch(() => undefined)));
  });

  it('loses no call and crosses no callers while every replica restarts, and keeps answering through a SIGKILL', async () => {
    const tally: Tally = { ok: 0, failed: 0, crossed: 0, failures: [] };
    const clients: { client: AnyClient; token: string }[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const token = `rolling-${i}`;
      clients.push({ client: await httpClient((i % 2 === 0 ? 'modern' : 'legacy') as Era, `${nginx.origin}/mcp`, { 'x-demo-token': token }), token });
    }
    let running = true;
    const loops = clients.map(async ({ client, token }) => {
      const expected = accountOf(token);
      while (running) {
        try {
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          if ((result['structuredContent'] as { account?: string } | undefined)?.account === expected) tally.ok++;
          else tally.crossed++;
        } catch (error) {
          tally.failed++;
          tally.failures.push({ at: Date.now(), error: (error as Error).message.slice(0, 120) });
        }
      }
    });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    const began = Date.now();
    const events: string[] = [];
    const mark = (event: string) => events.push(`${Date.now() - began} ms: ${event}`);
    await pause(1_000);
    // Drains that closed their listener without the balancer holding idle connections (they log it).
    let closedWithoutIdle = 0;
    for (let step = 0; step < REPLICAS * ROUNDS; step++) {
      const i = step % REPLICAS;
      mark(`SIGTERM replica ${i}`);
      replicas[i].child.kill('SIGTERM');
      expect(await replicas[i].exited).toBe(0);
      mark(`replica ${i} exited`);
      if (replicas[i].stderr().includes('stopped accepting connections without idle ones')) {
        closedWithoutIdle++;
        mark(`replica ${i} stopped accepting without idle connections in the balancer`);
      }
      replicas[i] = await start(ports[i]);
      mark(`replica ${i} healthy again`);
      await pause(1_500);
    }
    const rolling = { ...tally, failures: [...tally.failures] };

    // A replica killed outright: the calls it held may fail, but the balancer routes around it at
    // once, so calls go on succeeding on the others and none fails after the first moments.
    const killedAt = Date.now();
    const okBeforeKill = tally.ok;
    replicas[0].child.kill('SIGKILL');
    await replicas[0].exited;
    await pause(3_000);
    const killFailures = tally.failures.filter((f) => f.at >= killedAt);
    const okWhileKilled = tally.ok - okBeforeKill;
    replicas[0] = await start(ports[0]);
    await pause(500);
    running = false;
    await Promise.all(loops);
    await Promise.all(clients.map(({ client }) => client.close().catch(() => undefined)));

    const recovery = killFailures.length ? Math.max(...killFailures.map((f) => f.at)) - killedAt : 0;
    console.log(
      [
        `rolling restart of ${REPLICAS} replicas${ROUNDS > 1 ? ` (${ROUNDS} rounds)` : ''}: ${rolling.ok} calls answered, ${rolling.failed} failed, ${rolling.crossed} crossed callers (${CLIENTS} clients, both eras)`,
        `listener closed with idle connections in the balancer: ${REPLICAS * ROUNDS - closedWithoutIdle} of ${REPLICAS * ROUNDS} drains`,
        `SIGKILL of one replica: ${killFailures.length} calls failed; the last failure ${recovery} ms after the kill`,
      ].join('\n'),
    );
    if (rolling.failed) {
      const failures = rolling.failures.map((f) => `${f.at - began} ms: ${f.error.split('\n')[0]}`);
      console.log([...events, ...failures].sort((a, b) => parseInt(a) - parseInt(b)).join('\n') + `\nnginx's error log:\n${nginx.errors()}`);
    }
    expect(rolling.failures.map((f) => f.error)).toEqual([]);
    expect(rolling.crossed).toBe(0);
    expect(rolling.ok).toBeGreaterThan(500);
    expect(tally.crossed).toBe(0);
    expect(okWhileKilled).toBeGreaterThan(100);
    expect(killFailures.filter((f) => f.at - killedAt > 1_000).map((f) => f.error)).toEqual([]);
  }, 180_000 * ROUNDS);
});
