import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Starts one contender's HTTP server (`scenario.js http-server <contender>`) and resolves with its
 * MCP URL; with `cpu`, pinned to that core (`taskset -c`), so it does not share one with the load generator.
 */
export async function startHttpContenderProcess(script: string, contender: string, cpu?: number): Promise<{ child: ChildProcess; url: string }> {
  const command = [process.execPath, script, 'http-server', contender];
  const child = cpu === undefined ? spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn('taskset', ['-c', String(cpu), ...command], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${contender} server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}
