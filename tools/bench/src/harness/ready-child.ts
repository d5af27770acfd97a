import { spawn, type ChildProcess } from 'node:child_process';

/** A Node child process running `args`, once it prints a line matching `ready` (it listens); rejects if it exits first. */
export function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk;
      const match = ready.exec(seen);
      if (match) resolve({ child, line: match[0] });
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before it was ready: ${seen}`)));
  });
}
