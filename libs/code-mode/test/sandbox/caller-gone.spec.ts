import type { SandboxHost } from '../../src';

// The built library: the sandbox runs programs on its built worker script.
const { QuickJsSandbox } = require('../../dist') as typeof import('../../src');

/** A host whose `slow` call waits until the test releases it, recording every call that reached it. */
function gatedHost() {
  const received: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const slowEntered = new Promise<void>((resolve) => (entered = resolve));
  const host: SandboxHost = {
    namespaces: { shop: ['slow', 'bump'] },
    call: async (_namespace, tool, _args, signal) => {
      received.push(tool);
      if (tool === 'slow') {
        entered();
        await Promise.race([gate, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
      }
      return { value: tool };
    },
  };
  return { host, received, release, slowEntered };
}

describe('a program whose caller goes away', () => {
  const sandbox = new QuickJsSandbox({ workers: 1 });
  afterAll(() => sandbox.close());

  it('is stopped where it waits, and makes no inner call after that', async () => {
    const { host, received, release, slowEntered } = gatedHost();
    const caller = new AbortController();
    const running = sandbox.run('await api.shop.slow({}); await api.shop.bump({}); await api.shop.bump({}); return "all done";', host, {}, { signal: caller.signal });
    await slowEntered;
    caller.abort();
    release();
    expect(await running).toMatchObject({ ok: false, failure: { kind: 'stopped', message: expect.stringContaining('its caller cancelled the request or went away') } });
    expect(received).toEqual(['slow']);
    // The worker is free again for the next caller.
    expect(await sandbox.run('return 1 + 1;', host)).toMatchObject({ ok: true, value: 2 });
  });

  it('is dropped while it waits for a worker, and never runs', async () => {
    const { host, received, release, slowEntered } = gatedHost();
    const holding = sandbox.run('await api.shop.slow({}); return "held the worker";', host);
    await slowEntered;
    const callers = Array.from({ length: 6 }, () => new AbortController());
    const queued = callers.map((caller) => sandbox.run('await api.shop.bump({}); return "ran";', host, {}, { signal: caller.signal }));
    for (const caller of callers) caller.abort();
    const dropped = await Promise.all(queued);
    expect(dropped.map((outcome) => (outcome.ok ? 'ran' : outcome.failure.kind))).toEqual(Array(6).fill('stopped'));
    release();
    expect(await holding).toMatchObject({ ok: true, value: 'held the worker' });
    expect(await sandbox.run('return "next";', host)).toMatchObject({ ok: true, value: 'next' });
    expect(received).toEqual(['slow']);
  });

  it('is stopped by force when its worker is computing and cannot hear the cancel', async () => {
    const { host, received, release, slowEntered } = gatedHost();
    const caller = new AbortController();
    const spinning = sandbox.run('await api.shop.slow({}); for (;;) {}', host, { cpuMs: 60_000, wallMs: 60_000 }, { signal: caller.signal });
    await slowEntered;
    release();
    caller.abort();
    expect(await spinning).toMatchObject({ ok: false, failure: { kind: 'stopped' } });
    expect(received).toEqual(['slow']);
    expect(await sandbox.run('return "after";', host)).toMatchObject({ ok: true, value: 'after' });
  });
});
