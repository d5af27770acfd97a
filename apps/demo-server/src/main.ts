import { resolve } from 'node:path';
import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Over stdio each toolset runs as its own app: apps/<name>-server/dist/main.js, beside this one.
const stdioApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, '../..', `${name}-server`, 'dist/main.js'), '--stdio'] });

// The combined server runs from this app: --server=demo picks it, and --toolsets= and --discovery select.
const combined = { command: 'node', args: [resolve(__dirname, 'main.js'), '--stdio', '--server=demo'] };

startApp(buildServers, { stdioCommands: { hello: stdioApp('hello'), 'credential-demo': stdioApp('credential-demo'), demo: combined, notes: stdioApp('notes') } });
