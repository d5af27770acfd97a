import { resolve } from 'node:path';

// Not a timing test: it proves the built load generator drives a real server from its threads and
// accounts for what it measured. It runs from dist/, where the worker's compiled file lives.
const dist = resolve(__dirname, '../dist');
const { LoadThreads } = require(`${dist}/harness/load-threads.js`) as typeof import('../src/harness/load-threads');
const { startHttpContenderProcess } = require(`${dist}/harness/http-contender.js`) as typeof import('../src/harness/http-contender');

describe('the load generator threads', () => {
  it('drive a real server from two threads and count only the measured window', async () => {
    const server = await startHttpContenderProcess(`${dist}/scenario.js`, 'toolsets');
    const load = new LoadThreads();
    try {
      // A window long enough that a loaded CI machine still completes calls in it.
      const result = await load.run(server.url, 4, server.child.pid!, 500, 2000);
      expect(result.latencies.length).toBeGreaterThan(0);
      expect(result.perSecond).toBe(result.latencies.length / 2);
      expect(Math.min(...result.latencies)).toBeGreaterThan(0);
      expect(result.cpuMicrosPerCall).toBeGreaterThan(0);
      // A second job on the same threads works too (they are kept between windows).
      expect((await load.run(server.url, 1, server.child.pid!, 100, 300)).latencies.length).toBeGreaterThan(0);
    } finally {
      await load.close();
      server.child.kill();
    }
  });
});
