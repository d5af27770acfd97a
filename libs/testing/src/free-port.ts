import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The ports the kernel hands out on its own (`listen(0)`, a client's outgoing socket): Linux's default when unreadable. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf-8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the IANA dynamic range, which macOS and Windows use.
  }
  return [49152, 65535];
}

/** Ports no process is given without asking for them by number: below the kernel's own range, above the well-known ones. */
function unassignedRange(): [number, number] {
  const [low, high] = ephemeralRange();
  return low - 1 >= 20_000 ? [20_000, low - 1] : [high + 1, 65_535];
}

function bindable(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A loopback port nothing listens on now: for a process that takes a port number, not 0 (an
 * upstream mock, a server whose URL must be known before it starts, a dev server that restarts on
 * its port). Chosen at random outside the kernel's ephemeral range, so no server started with port
 * 0 and no outgoing connection of another test can be given it before the process binds it; only
 * another caller of this function could, one chance in thousands. Tests that can pass 0 should.
 */
export async function freePort(): Promise<number> {
  const [low, high] = unassignedRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`No free loopback port in ${low}–${high} after 50 tries: something holds most of them.`);
}
