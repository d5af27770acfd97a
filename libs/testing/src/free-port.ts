import { createServer, type AddressInfo } from 'node:net';

/**
 * A loopback port nothing listens on now: for a process that takes a port number, not 0 (an
 * upstream mock, a server whose URL must be known before it starts). Taken and let go, so another
 * process could take it first; tests that can pass 0 should.
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((listening) => probe.listen(0, '127.0.0.1', listening));
  const { port } = probe.address() as AddressInfo;
  await new Promise((closed) => probe.close(closed));
  return port;
}
