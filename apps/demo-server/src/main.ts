import { resolve } from 'node:path';
import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Over stdio each toolset runs as its own app: apps/<name>-server/dist/main.js, beside this one.
const stdioApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, '../..', `${name}-server`, 'dist/main.js'), '--stdio'] });

startApp(buildServers, { stdioCommands: { hello: stdioApp('hello'), 'credential-demo': stdioApp('credential-demo') } });
