import 'reflect-metadata';
import { buildServer, type ServerDefinition } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';

/** The app's server definitions; `main.ts` serves them, and the `contract` target checks them without listening. */
export function buildServers(): ServerDefinition {
  return buildServer({ name: 'credential-demo', version: '0.1.0', toolsets: [CredentialDemoToolset] });
}
