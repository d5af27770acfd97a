import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';
import { waitUntil } from './wait-until';

/** A Redis server a test started on a loopback port of its own, with nothing saved to disk. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`: what `REDIS_URL` is set to. */
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM, then SIGKILL after 2 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts Debian's `redis-server` (`apt-get install redis-server`) for one test run: loopback only,
 * no persistence, on a free port. Resolves once it accepts connections.
 */
export async function startTestRedis(options: { binary?: string } = {}): Promise<TestRedis> {
  const binary = options.binary ?? 'redis-server';
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let failed: Error | undefined;
  let exited = false;
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('error', (error) => (failed = error));
  child.on('exit', () => (exited = true));
  await waitUntil(() => /Ready to accept connections/.test(output), {
    deadlineMs: 10_000,
    givenUp: () => exited || failed !== undefined,
    failure: () =>
      (failed as { code?: string } | undefined)?.code === 'ENOENT'
        ? `${binary} is not installed: apt-get install redis-server (Debian), or pass { binary } to startTestRedis.`
        : `${binary} did not start on port ${port}: ${output.trim().slice(-500) || failed?.message || 'no output'}`,
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (exited) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await gone;
      clearTimeout(timer);
    },
  };
}
