import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceRoot } from './server-process';

/**
 * The test host page (view-host/), built as its README tells a user to build it: the folder copied
 * outside the workspace, its packages installed (here the workspace's node_modules, linked), then
 * `vite build` with the folder's own config. Served from a loopback server of its own, so the host
 * and the MCP server are different origins, as they are for a real host (the server allows it with CORS_ORIGINS).
 */
export async function startViewHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const copy = mkdtempSync(join(tmpdir(), 'view-host-'));
  let page: Buffer;
  try {
    cpSync(join(__dirname, 'view-host'), copy, { recursive: true });
    symlinkSync(join(workspaceRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
    execFileSync(process.execPath, [join(workspaceRoot, 'node_modules/vite/bin/vite.js'), 'build'], { cwd: copy, stdio: 'inherit' });
    page = readFileSync(join(copy, 'dist/index.html'));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const server: Server = createServer((req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
