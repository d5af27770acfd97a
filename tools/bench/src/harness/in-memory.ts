import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ServerFactory } from '../contenders/hello-contenders';

/** Every contender is served the same way: the SDK's serving entry over a linked in-memory pair. */
export async function connectInMemory(factory: ServerFactory): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(factory, { transport: serverSide });
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await handle.close();
    },
  };
}
