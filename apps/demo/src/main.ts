import 'reflect-metadata';
import { resolve } from 'node:path';
import { buildServer, startApp } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';
import { HelloToolset } from '@toolsets/hello';

// Both demo toolsets in one process, each at /<name>/mcp; over stdio each runs as its own app.
const stdioApp = (name: string) => ({ command: 'node', args: [resolve(__dirname, '..', name, 'main.js'), '--stdio'] });

startApp(
  () => [
    buildServer({ name: 'hello', version: '0.1.0', toolsets: [HelloToolset] }),
    buildServer({ name: 'credential-demo', version: '0.1.0', toolsets: [CredentialDemoToolset] }),
  ],
  { stdioCommands: { hello: stdioApp('hello'), 'credential-demo': stdioApp('credential-demo') } },
);
