import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../src/free-port';

describe('freePort', () => {
  it("gives a free loopback port outside the kernel's ephemeral range, which a server started with port 0 or an outgoing connection could take", async () => {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf-8').trim().split(/\s+/).map(Number);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port < low! || port > high!).toBe(true);
    // Each can be bound right away.
    for (const port of ports.slice(0, 5)) {
      const server = createServer();
      await new Promise<void>((listening, failed) => server.once('error', failed).listen(port, '127.0.0.1', listening));
      await new Promise((closed) => server.close(closed));
    }
  });

});
