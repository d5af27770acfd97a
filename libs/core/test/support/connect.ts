import { Client } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { InMemoryTransport, type McpRequestContext, type Server } from '@modelcontextprotocol/server';
import { serveStdio as serveConnection } from '@modelcontextprotocol/server/stdio';
import type { ConnectionOptions, ServerDefinition } from '../../src';

/** The SDK v2 `Client`, pinned to the 2026-07-28 era, connected in memory to a server built by `buildServer`. */
export async function connectClient(server: ServerDefinition, connection?: ConnectionOptions): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, connection);
  const client = new Client({ name: 'core-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(clientSide);
  return client;
}

/** The v1 `@modelcontextprotocol/sdk` `Client` (2025 era): it validates structuredContent with Ajv. */
export async function connectLegacyClient(server: ServerDefinition, connection?: ConnectionOptions): Promise<LegacyClient> {
  const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never, connection);
  const client = new LegacyClient({ name: 'core-test-2025', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A silent logger that remembers what it was told, for asserting on server-side log lines. */
export function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, fields });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

/** The v1 client connected to servers from any factory, through the SDK's serving entry (for negative controls). */
export async function connectLegacyClientToFactory(factory: (context?: McpRequestContext) => Server): Promise<LegacyClient> {
  const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
  serveConnection(factory, { transport: serverSide as never });
  const client = new LegacyClient({ name: 'core-test-2025', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
