import { spawn, type ChildProcess } from 'node:child_process';

/** Starts one contender's HTTP server (`scenario.js http-server <contender>`) and resolves with its MCP URL. */
export async function startHttpContenderProcess(script: string, contender: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [script, 'http-server', contender], { stdio: ['ignore', 'pipe', 'inherit'] });
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
