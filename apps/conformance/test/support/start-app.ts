import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface RunningApp {
  origin: string;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
}

/** Starts the built conformance app on a free loopback port and waits for its "serving" log line. */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const app: ChildProcess = spawn(process.execPath, [join(__dirname, '../../dist/main.js')], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DRAIN_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => app.once('exit', resolve));
  const origin = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    app.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.includes('"serving over streamable HTTP"'));
      if (line) resolve(JSON.parse(line).origin);
    });
    void exited.then((code) => reject(new Error(`the conformance app exited with ${code}: ${stderr}`)));
  });
  return {
    origin,
    async stop() {
      app.kill('SIGTERM');
      await exited;
    },
  };
}
