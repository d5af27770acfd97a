import 'reflect-metadata';
import { buildServer, type ToolsetServer } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';

/** The app's server definitions; `main.ts` serves them, and the `contract` target checks them without listening. */
export function buildServers(): ToolsetServer {
  return buildServer({ name: 'credential-demo', version: '0.1.0', toolsets: [CredentialDemoToolset] });
}
