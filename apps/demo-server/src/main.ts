import { dirname, join, resolve } from 'node:path';
import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Over stdio each toolset runs as its own app: apps/<name>-server/dist/main.js, beside this one.
const stdioApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, '../..', `${name}-server`, 'dist/main.js'), '--stdio'] });

// The servers without an app of their own run from this one: --server= picks one (and for demo, --toolsets= and --discovery select).
const fromThisApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, 'main.js'), '--stdio', `--server=${name}`] });

// The reference server the everything toolset was generated from runs as this app's child over stdio:
// from wherever it is installed, whatever folder a client starts this app in.
// (Where it is not installed, its tools answer that the upstream cannot be reached; the others are unaffected.)
try {
  process.env['EVERYTHING_MCP_COMMAND'] ??= `node ${join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js')} stdio`;
} catch {
  // Not installed: the generated command stands.
}

startApp(buildServers, {
  stdioCommands: { hello: stdioApp('hello'), 'credential-demo': stdioApp('credential-demo'), demo: fromThisApp('demo'), notes: stdioApp('notes'), reports: fromThisApp('reports'), everything: fromThisApp('everything') },
});
