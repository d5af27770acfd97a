import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { workspaceRoot } from './server-process';

/** What the tests need from a client of either era. */
export interface AnyClient {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export type Era = 'modern' | 'legacy';

/** The SDK v2 Client pinned to 2026-07-28, or the v1 SDK Client (2025 era), over streamable HTTP. */
export async function httpClient(era: Era, url: string, headers: Record<string, string> = {}): Promise<AnyClient> {
  if (era === 'modern') {
    const connect = async () => {
      const client = new Client({ name: 'e2e-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return client;
    };
    // The first POST may go out on a pooled connection from an earlier test that the server closed
    // after its keep-alive timeout just then ("other side closed"); fetch retries no POST, so the
    // test connects once more, as a client would.
    const client = await connect().catch((error: Error) => {
      if (!/fetch failed/.test(error.message) || !/other side closed/.test(String((error.cause as Error | undefined)?.cause ?? ''))) throw error;
      return connect();
    });
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: 'e2e-legacy', version: '1.0.0' });
  await client.connect(new LegacyHttpTransport(new URL(url), { requestInit: { headers } }));
  return client as unknown as AnyClient;
}

/** Starts `node <args>` as a child process of the SDK's own stdio transport (v2 pinned to 2026-07-28, or v1), with only PATH and `env`. */
export async function stdioClient(era: Era, args: readonly string[], env: Record<string, string> = {}): Promise<AnyClient> {
  const params = { command: process.execPath, args: [...args], cwd: workspaceRoot, env: { PATH: process.env['PATH'] ?? '', ...env }, stderr: 'pipe' as const };
  if (era === 'modern') {
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StdioClientTransport(params));
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient({ name: 'e2e-stdio-2025', version: '1.0.0' });
  await client.connect(new LegacyStdioTransport(params));
  return client as unknown as AnyClient;
}

export const textOf = (result: Record<string, unknown>) => (result['content'] as { text: string }[]).map((c) => c.text).join('\n');

/** The demo resolver's account for a token, computed here independently of the server. */
export const accountOf = (token: string) => `user-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;
