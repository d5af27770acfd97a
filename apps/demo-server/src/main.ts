import { resolve } from 'node:path';
import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Over stdio each toolset runs as its own app: apps/<name>-server/dist/main.js, beside this one.
const stdioApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, '../..', `${name}-server`, 'dist/main.js'), '--stdio'] });

// The servers without an app of their own run from this one: --server= picks one (and for demo, --toolsets= and --discovery select).
const fromThisApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, 'main.js'), '--stdio', `--server=${name}`] });

startApp(buildServers, {
  stdioCommands: { hello: stdioApp('hello'), 'credential-demo': stdioApp('credential-demo'), demo: fromThisApp('demo'), notes: stdioApp('notes'), reports: fromThisApp('reports') },
});
