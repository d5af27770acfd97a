import { Agent, request } from 'node:http';
import { rawExchange } from './support/raw-http';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';

/** mulberry32: a small seeded generator, so a failing run can be replayed with FUZZ_SEED. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}
type Random = ReturnType<typeof generator>;

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261130);
const REQUESTS = 3_000;
const SECRET = 'fuzz-secret-7d1e';

function junkString(r: Random): string {
  return r.pick([
    '',
    'x'.repeat(r.int(5000)),
    '\u0000\u0001\u202e',
    '"; DROP TABLE',
    '{{7*7}}',
    '../../etc/passwd',
    '%00%ff',
    String.fromCharCode(...Array.from({ length: r.int(40) }, () => r.int(0xffff))),
  ]);
}

function junkValue(r: Random, depth = 0): unknown {
  switch (r.int(depth > 3 ? 5 : 8)) {
    case 0: return null;
    case 1: return r.int(2) === 0;
    case 2: return r.pick([0, -1, 1e308, -0, 3.5, Number.MAX_SAFE_INTEGER]);
    case 3: return junkString(r);
    case 4: return r.pick(['hello', 'names', 'name', '__proto__', 'constructor']);
    case 5: return Array.from({ length: r.int(5) }, () => junkValue(r, depth + 1));
    case 6: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick(['name', 'names', 'extra', 'constructor', 'prototype', junkString(r).slice(0, 20)]), junkValue(r, depth + 1)]));
    default: {
      const depthOfNest = 1 + r.int(60);
      return JSON.parse('['.repeat(depthOfNest) + ']'.repeat(depthOfNest));
    }
  }
}

function arguments_(r: Random): unknown {
  return r.pick([
    () => ({ name: junkValue(r) }),
    () => ({ names: junkValue(r) }),
    () => ({ names: Array.from({ length: r.int(30) }, () => junkString(r).slice(0, 200)) }),
    () => ({ names: ['a'], extra: junkValue(r) }),
    () => junkValue(r),
    () => ({}),
  ])();
}

function body(r: Random): string {
  const tool = r.pick(['hello', 'greet_team', 'whoami', 'nope', junkString(r)]);
  const uri = () => r.pick(['hello://languages', `hello://greeting/${junkString(r).slice(0, 40)}`, 'hello://greeting/french', junkString(r), `hello://${'x'.repeat(r.int(5000))}`]);
  const memberParams = () =>
    r.pick([
      { name: r.pick(['welcome', 'nope', junkString(r)]), arguments: r.pick([{ name: junkValue(r), team: 'x' }, junkValue(r), { name: 'a', team: 'b' }]) },
      { uri: uri() },
      { uri: junkValue(r) },
      { ref: r.pick([{ type: 'ref/prompt', name: 'welcome' }, { type: 'ref/resource', uri: 'hello://greeting/{language}' }, junkValue(r)]), argument: r.pick([{ name: 'language', value: junkString(r) }, junkValue(r)]) },
      { level: r.pick(['debug', 'nope', junkValue(r)]) },
    ]);
  const message = () => {
    const method = r.pick(['tools/call', 'tools/call', 'tools/list', 'initialize', 'ping', 'notifications/initialized', 'nope', 5, 'prompts/get', 'prompts/list', 'resources/read', 'resources/list', 'resources/templates/list', 'resources/subscribe', 'completion/complete', 'logging/setLevel']);
    const member = typeof method === 'string' && !method.startsWith('tools/') && method !== 'initialize';
    return {
      jsonrpc: r.pick(['2.0', '2.0', '2.0', '1.0', 2, undefined]),
      id: r.pick([1, 'a', null, undefined, {}, [], 1e300]),
      method,
      params: member ? r.pick([memberParams(), memberParams(), junkValue(r), undefined]) : r.pick([{ name: tool, arguments: arguments_(r) }, { name: tool }, junkValue(r), undefined]),
    };
  };
  return r.pick([
    () => JSON.stringify(message()),
    () => JSON.stringify(message()),
    () => JSON.stringify(message()),
    () => JSON.stringify([message(), message()]),
    () => JSON.stringify(message()).slice(0, r.int(60)),
    () => junkString(r),
    () => JSON.stringify(junkValue(r)),
    () => '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{"__proto__":{"a":1}}}}',
  ])();
}

function headers(r: Random): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': r.pick(['application/json', 'application/json', 'text/plain', 'application/json; charset=utf-8']),
    accept: r.pick(['application/json, text/event-stream', 'application/json, text/event-stream', 'text/html', '*/*']),
  };
  if (r.int(2)) h['mcp-protocol-version'] = r.pick(['2025-06-18', '2025-11-25', '2026-07-28', '1999-01-01', 'garbage', 'v'.repeat(r.int(300))]);
  if (r.int(3) === 0) h['x-demo-token'] = SECRET;
  if (r.int(8) === 0) h['host'] = r.pick(['localhost', 'attacker.example', 'localhost:1', '[::1]', 'a'.repeat(300)]);
  if (r.int(8) === 0) h['origin'] = r.pick(['http://localhost', 'null', 'http://attacker.example', 'file://']);
  if (r.int(10) === 0) h['mcp-name'] = junkString(r).replace(/[^\x20-\x7e]/g, '').slice(0, 2000);
  if (r.int(10) === 0) h['mcp-method'] = r.pick(['tools/call', 'x']);
  return h;
}

interface Answer {
  status: number;
  body: string;
}

function send(origin: string, agent: Agent, method: string, path: string, h: Record<string, string>, payload?: string): Promise<Answer> {
  return new Promise((done) => {
    const req = request(`${origin}${path}`, { method, agent, headers: h, setHost: !('host' in h), timeout: 15_000 }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: text }));
      res.on('error', (error) => done({ status: -1, body: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error) => done({ status: -1, body: error.message }));
    req.end(payload);
  });
}

describe.each([
  ['stateless', {}],
  ['with 2025-era sessions', { MCP_SESSIONS: 'on' }],
])('a seeded fuzz of bad JSON-RPC, bad arguments and hostile headers (demo app, both mounts, %s)', (_mode, env: Record<string, string>) => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess(appMain('demo-server'), env);
  });
  afterAll(async () => {
    await server.stop();
  });

  it(`answers ${REQUESTS} requests (seed ${SEED}) with 2xx/4xx, no stack trace, no secret, and stays up`, async () => {
    const r = generator(SEED);
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const failures: string[] = [];
    /** `page`: the catalog index, which answers a browser's Accept with HTML. */
    const check = (what: string, answer: Answer, page = false) => {
      const problem =
        answer.status < 200 || answer.status >= 500
          ? `status ${answer.status}`
          : /\n\s+at .+:\d+:\d+|node:internal|\.js:\d+/.test(answer.body)
            ? 'stack trace in the reply'
            : answer.body.includes(SECRET)
              ? 'secret in the reply'
              : answer.status >= 200 && answer.status < 300 && answer.status !== 202 && !/^\s*[{[]|^event:/.test(answer.body) && answer.body !== '' && !(page && answer.body.startsWith('<!doctype html>'))
                ? 'a 2xx that is not JSON-RPC'
                : undefined;
      if (problem && failures.length < 20) failures.push(`${problem}: ${what} -> ${answer.status} ${answer.body.slice(0, 200)}`);
    };
    const { port } = new URL(server.origin);
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const n = next++;
        if (r.int(10) === 0) {
          const line = r.pick(['POST /hello/mcp HTTP/1.1', `POST http://127.0.0.1:${port}/hello/mcp HTTP/1.1`, 'TRACE /hello/mcp HTTP/1.1', 'GET * HTTP/1.1', 'POST /hello/mcp HTTP/1.0', 'BREW /x HTTP/1.1']);
          const extra = r.pick(['Host: localhost', 'Host: evil.example@localhost', 'Host: localhost\r\nHost: other', 'X-Demo-Token: a\r\nX-Demo-Token: b', 'Transfer-Encoding: chunked', 'Content-Length: -1']);
          const payload = body(r);
          const bytes = `${line}\r\n${extra}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`;
          const answer = await rawExchange(server.origin, bytes, 15_000).catch((error: Error) => ({ status: -1, body: error.message }));
          check(`raw #${n} ${JSON.stringify(bytes.slice(0, 120))}`, answer);
          continue;
        }
        const method = r.pick(['POST', 'POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS', 'HEAD']);
        const path = r.pick(['/hello/mcp', '/credential-demo/mcp', '/hello/mcp', '/credential-demo/mcp/', '/', '/health', '/ready', '/nope', `/${'p'.repeat(r.int(3000))}`]);
        const h = headers(r);
        const payload = method === 'POST' || method === 'PUT' ? body(r) : undefined;
        const answer = await send(server.origin, agent, method, path, h, payload);
        check(`#${n} ${method} ${path.slice(0, 40)} ${JSON.stringify(h).slice(0, 200)} ${payload?.slice(0, 200)}`, method === 'HEAD' ? { ...answer, body: '' } : answer, path === '/');
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    agent.destroy();
    expect(failures).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toContain(SECRET);
    expect(server.stderr()).not.toContain('http handler failed');
    expect(server.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const health = await fetch(`${server.origin}/health`);
    expect(health.status).toBe(200);
  });
});
