#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
// against the built conformance app: every server scenario, active and pending, with
// expected-failures.yml as the baseline. With --next, the next suite instead
// (@modelcontextprotocol/conformance-next: 0.2.0-alpha.12, pinned), every scenario of every
// revision and extension (`--suite all`: the 2026-07-28 requirement set, tasks, skills), with
// expected-failures-next.yml as the baseline. The app runs with MCP_SESSIONS=on: the suite's client
// speaks 2025-era MCP, whose elicitation, sampling and subscriptions need a session. The suite needs Node 22; it runs on the npm `node@22`
// package through npx, so no system install is needed. Exits with the suite's own code.
const { spawn, spawnSync } = require('node:child_process');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '../../..');
const app = join(root, 'apps/conformance/dist/main.js');
const next = process.argv.includes('--next');
const cli = join(root, `node_modules/@modelcontextprotocol/${next ? 'conformance-next' : 'conformance'}/dist/index.js`);
const baseline = join(root, `apps/conformance/${next ? 'expected-failures-next.yml' : 'expected-failures.yml'}`);

function start() {
  const server = spawn(process.execPath, [app], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', MCP_SESSIONS: 'on', DRAIN_DELAY_MS: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the conformance app did not start:\n${stderr}`)), 20_000);
    server.stderr.on('data', (chunk) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.includes('"serving over streamable HTTP"'));
      if (line) {
        clearTimeout(timer);
        resolve({ server, origin: JSON.parse(line).origin });
      }
    });
    server.on('exit', (code) => reject(new Error(`the conformance app exited with ${code}:\n${stderr}`)));
  });
}

async function main() {
  const { server, origin } = await start();
  const output = mkdtempSync(join(tmpdir(), 'conformance-'));
  const args = ['-y', '-p', 'node@22', '--', 'node', cli, 'server', '--url', `${origin}/mcp`, '--suite', 'all', '--expected-failures', baseline, '-o', output];
  const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
  server.kill('SIGTERM');
  console.log(`results: ${output}`);
  process.exit(run.status ?? 1);
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
