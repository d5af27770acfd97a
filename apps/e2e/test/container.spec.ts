import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountOf, httpClient } from './support/clients';
import { freePort } from './support/nginx';
import { packedApp } from './support/packed-app';
import { startServerCommand, workspaceRoot } from './support/server-process';

const APP = 'credential-demo-server';
const dockerfile = readFileSync(join(workspaceRoot, 'apps', APP, 'Dockerfile'), 'utf-8');
const instruction = (name: string) => dockerfile.split('\n').filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
/** This machine's non-loopback IPv4 address, as a pod's IP. */
const ownAddress = () => Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)!.address;
const execForm = (value: string) => JSON.parse(value.replace(/^(--\S+ )+/, '').replace(/^CMD /, '')) as string[];

/**
 * The container image, as far as this machine allows (no Docker engine): the Dockerfile's shape,
 * and its runtime stage's steps run outside Docker (the production install in a clean folder, the
 * start command, the health check, one call), then the Kubernetes manifests against the schemas.
 */
describe(`the ${APP} image and manifests`, () => {
  const scratch: string[] = [];
  afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is multi-stage, non-root, production, bound to 0.0.0.0, stops on SIGTERM and checks its health', () => {
    expect(instruction('FROM').length).toBeGreaterThanOrEqual(2);
    expect(instruction('USER')).toEqual(['node']);
    expect(instruction('ENV')[0]).toMatch(/NODE_ENV=production HOST=0\.0\.0\.0 PORT=8000/);
    expect(instruction('STOPSIGNAL')).toEqual(['SIGTERM']);
    expect(instruction('HEALTHCHECK')).toHaveLength(1);
  });

  it('runs the runtime stage outside Docker: production install, start, /health, the health check, one call and a scrape as the manifests configure it; no start without ALLOWED_HOSTS', async () => {
    // RUN: echo '{"private":true}' > package.json && npm install --omit=dev --no-audit --no-fund /tmp/app.tgz
    expect(dockerfile).toMatch(/npm install --omit=dev --no-audit --no-fund \/tmp\/app\.tgz/);
    const app = packedApp(APP).installed;

    const cmd = execForm(instruction('CMD')[0]);
    // PORT=0: the server takes a free port and says which (a port picked free beforehand was taken by
    // another lane's server before this one bound it, once: EADDRINUSE). The health check gets the one it took.
    const base = { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '0', DRAIN_DELAY_MS: '0' };
    const refused = spawnSync(cmd[0], cmd.slice(1), { cwd: app, env: base, encoding: 'utf-8' });
    expect(refused.status).toBe(64);
    expect(refused.stderr).toContain('Set ALLOWED_HOSTS to the host names clients reach this server by');

    // The metrics listener's port is named up front (the scrape below needs it): taken meanwhile, it is picked again.
    let metricsPort = 0;
    let server: Awaited<ReturnType<typeof startServerCommand>> | undefined;
    for (let attempt = 1; !server; attempt++) {
      metricsPort = await freePort();
      try {
        server = await startServerCommand(cmd, { ...base, ALLOWED_HOSTS: 'localhost', METRICS: 'on', METRICS_PORT: String(metricsPort) }, app);
      } catch (error) {
        if (attempt === 3 || !/EADDRINUSE/.test(String(error))) throw error;
      }
    }
    const port = Number(new URL(server.origin).port);
    const env = { ...base, PORT: String(port) };
    try {
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      const healthcheck = execForm(instruction('HEALTHCHECK')[0]);
      expect(spawnSync(healthcheck[0] === 'node' ? process.execPath : healthcheck[0], healthcheck.slice(1), { env: { ...env }, encoding: 'utf-8' }).status).toBe(0);
      const client = await httpClient('modern', `http://localhost:${port}/mcp`, { 'x-demo-token': 'container-token' });
      expect((await client.callTool({ name: 'whoami', arguments: {} }))['structuredContent']).toMatchObject({ account: accountOf('container-token') });
      await client.close();
      // Prometheus scrapes a pod by its IP, which is not in ALLOWED_HOSTS: the server's own address is accepted.
      const scrape = await fetch(`http://${ownAddress()}:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toMatch(/^mcp_server_operation_duration_seconds_count\{[^}]*gen_ai_tool_name="whoami"[^}]*\} 1$/m);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 180_000);

  it('ships Kubernetes manifests (Deployment, Service, HPA, PDB) that the Kubernetes schemas accept, and a validator that catches a broken one', () => {
    const validate = (dir?: string) => spawnSync(process.execPath, [join(workspaceRoot, 'tools/k8s/validate.mjs'), ...(dir ? [dir] : [])], { encoding: 'utf-8' });
    const ok = validate();
    expect(ok.status).toBe(0);
    const report = JSON.parse(ok.stdout) as { apps: Record<string, string[]> };
    expect(report.apps[APP]).toEqual([`Deployment/${APP}`, `Service/${APP}`, `HorizontalPodAutoscaler/${APP}`, `PodDisruptionBudget/${APP}`]);
    const deployment = readFileSync(join(workspaceRoot, 'deploy/k8s', APP, 'deployment.yaml'), 'utf-8');
    expect(deployment).toContain('path: /ready');
    expect(deployment).toContain('path: /health');
    expect(deployment).toContain('readOnlyRootFilesystem: true');
    expect(deployment).toContain('prometheus.io/scrape: "true"');
    expect(deployment).toMatch(/prometheus\.io\/port: "9464"[\s\S]*name: METRICS_PORT\n\s+value: "9464"/);

    const broken = mkdtempSync(join(tmpdir(), 'toolsets-k8s-'));
    scratch.push(broken);
    cpSync(join(workspaceRoot, 'deploy/k8s', APP), join(broken, APP), { recursive: true });
    writeFileSync(join(broken, APP, 'deployment.yaml'), deployment.replace('containerPort: 8000', 'containerPort: http-port'));
    const refused = validate(broken);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('containerPort must be integer');
  });
});
