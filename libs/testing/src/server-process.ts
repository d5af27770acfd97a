import { spawn, type ChildProcess } from 'node:child_process';
import { waitUntil } from './wait-until';

export interface ServerProcess {
  origin: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once `count` lines of stderr equal `line` (or pass it); fails loudly, with the log's tail, at the deadline. */
  stderrLines(line: string | ((line: string) => boolean), count?: number, deadlineMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A predicate for `stderrLines`: the app's JSON log line with this `message`. */
export const logMessage = (message: string) => (line: string) => line.includes(`"message":${JSON.stringify(message)}`);

/**
 * Starts a built server app (`startApp`) as its own process on a free loopback port (`HOST`,
 * `PORT=0`) and waits until its log line says where it serves: for tests that drive the real
 * process over HTTP, signals included.
 */
export async function startServerProcess(script: string, env: Record<string, string> = {}, cwd = process.cwd()): Promise<ServerProcess> {
  return startServerCommand([process.execPath, script], env, cwd);
}

const START_DEADLINE_MS = 60_000;

/** The same for any command line (a Dockerfile's `CMD`, say): `[command, ...args]`. */
export async function startServerCommand([command, ...args]: readonly string[], env: Record<string, string> = {}, cwd = process.cwd()): Promise<ServerProcess> {
  const script = [command, ...args].join(' ');
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const origin = await new Promise<string>((found, fail) => {
    // A bound on a process that never starts (a loaded machine starts one in seconds); it is killed, so it cannot keep the test runner alive.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${script} did not start within ${START_DEADLINE_MS} ms (killed):\n${stderr}`));
    }, START_DEADLINE_MS);
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.includes('"serving over streamable HTTP"'));
      if (line) {
        clearTimeout(timer);
        found(JSON.parse(line).origin);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`${script} exited with ${code} before serving:\n${stderr}`));
    });
  });
  return {
    origin,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stderrLines(line, count = 1, deadlineMs = 30_000) {
      const matches = typeof line === 'string' ? (l: string) => l === line : line;
      const seen = () => stderr.split('\n').filter(matches).length;
      await waitUntil(() => seen() >= count, { deadlineMs, failure: () => `saw ${seen()} of ${count} '${String(line)}' lines within ${deadlineMs} ms:\n${stderr.slice(-2000)}` });
    },
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
