import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceRoot } from './server-process';

/**
 * The test host page: view-host/index.html and host.ts bundled into one page by the script that
 * builds the views (Vite), served from a loopback server of its own, so the host and the MCP
 * server are different origins, as they are for a real host (the server allows it with CORS_ORIGINS).
 */
export async function startViewHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const out = mkdtempSync(join(tmpdir(), 'view-host-'));
  let page: Buffer;
  try {
    execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/build-views.cjs'), '--page', join(__dirname, 'view-host'), join(out, 'host.html')], { stdio: 'inherit' });
    page = readFileSync(join(out, 'host.html'));
  } finally {
    rmSync(out, { recursive: true, force: true });
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
