import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntil } from '@toolsets/testing';
import { workspaceRoot } from './server-process';

export { freePort };

export interface Nginx {
  origin: string;
  /** nginx's error log so far: why a call got a 502 (e.g. `upstream prematurely closed connection`). */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * With `routeBy`, requests go by one header's value (`mcp-param-region: eu`) to the replica its
 * route names, as a gateway routes by an argument a tool mirrors into a header; the rest to all.
 */
function routesOf(routeBy: { header: string; routes: Readonly<Record<string, number>> } | undefined): string {
  if (!routeBy) return '';
  const entries = Object.entries(routeBy.routes);
  const upstreams = entries.map(([, port], index) => `  upstream route_${index} {\n    server 127.0.0.1:${port};\n  }`);
  const map = `  map $http_${routeBy.header.toLowerCase().replace(/-/g, '_')} $routed {\n    default replicas;\n${entries.map(([value], index) => `    "${value}" route_${index};`).join('\n')}\n  }`;
  return `${upstreams.join('\n')}\n${map}`;
}

/**
 * Debian's nginx in front of `upstreams`, installed by tools/nginx/ensure-nginx.sh when missing,
 * with the default retry policy (`proxy_next_upstream error timeout http_502`, no
 * `non_idempotent`) and upstream keep-alive that nginx itself closes before the replicas would
 * (keepalive_timeout 4s, under their 5 s): the balancer, not the replica, ends idle connections.
 * `readTimeoutSeconds` sets `proxy_read_timeout` (nginx's default: 60 s), the longest silence it waits out from a replica.
 */
export async function startNginx(
  upstreams: readonly number[],
  options: { routeBy?: { header: string; routes: Readonly<Record<string, number>> }; readTimeoutSeconds?: number } = {},
): Promise<Nginx> {
  execFileSync('bash', [join(workspaceRoot, 'tools/nginx/ensure-nginx.sh')], { stdio: 'inherit' });
  const binary = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const dir = mkdtempSync(join(tmpdir(), 'toolsets-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  const port = await freePort();
  const config = `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream replicas {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
    keepalive_timeout 4s;
  }
${routesOf(options.routeBy)}
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://${options.routeBy ? '$routed' : 'replicas'};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host localhost;
      proxy_buffering off;
      proxy_next_upstream error timeout http_502;${options.readTimeoutSeconds === undefined ? '' : `\n      proxy_read_timeout ${options.readTimeoutSeconds}s;`}
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(binary, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-e', join(dir, 'error.log')], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  await waitUntil(() => fetch(`${origin}/health`).then(() => true, () => false), {
    deadlineMs: 30_000,
    givenUp: () => child.exitCode !== null,
    failure: () => `nginx did not start${child.exitCode !== null ? ` (it exited with ${child.exitCode})` : ' within 5 s'}: ${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8').slice(-500) : 'no error log'}`,
  });
  return {
    origin,
    errors: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    async stop() {
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
