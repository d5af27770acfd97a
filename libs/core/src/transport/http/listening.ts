import type { Server as NodeHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `http` listening; rejects with the listen error (`EADDRINUSE`, …). */
export function listen(http: NodeHttpServer, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
}

/** `http://host:port` of a listening server, IPv6 addresses bracketed. */
export function originOf(server: NodeHttpServer): string {
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
