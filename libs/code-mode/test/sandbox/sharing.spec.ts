import type { SandboxHost } from '../../src';

// The built library: the sandbox runs programs on its built worker script.
const { QuickJsSandbox } = require('../../dist') as typeof import('../../src');

/** A host whose `hold` call waits until the test releases it: a program that holds a worker as long as the test wants. */
function holdingHost() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const holding = new Promise<void>((resolve) => (entered = resolve));
  const host: SandboxHost = {
    namespaces: { shop: ['hold'] },
    call: async () => {
      entered();
      await gate;
      return { value: 'held' };
    },
  };
  return { host, release, holding };
}

describe('programs sharing the workers', () => {
  it("answers a caller's program busy while two of its own run or wait, naming CODE_MODE_PER_CALLER, and takes another caller's", async () => {
    const sandbox = new QuickJsSandbox({ workers: 1, perCaller: 2 });
    try {
      const { host, release, holding } = holdingHost();
      const first = sandbox.run('return await api.shop.hold({});', host, {}, { caller: 'alice' });
      await holding;
      const second = sandbox.run('return "second";', host, {}, { caller: 'alice' });
      expect(await sandbox.run('return "third";', host, {}, { caller: 'alice' })).toMatchObject({ ok: false, failure: { kind: 'busy', message: expect.stringContaining('(CODE_MODE_PER_CALLER)'), retryAfterMs: expect.any(Number) } });
      const other = sandbox.run('return "bob";', host, {}, { caller: 'bob' });
      release();
      expect(await Promise.all([first, second, other])).toMatchObject([{ ok: true, value: 'held' }, { ok: true, value: 'second' }, { ok: true, value: 'bob' }]);
      // Once they ended, the caller has its share again.
      expect(await sandbox.run('return "again";', host, {}, { caller: 'alice' })).toMatchObject({ ok: true, value: 'again' });
    } finally {
      await sandbox.close();
    }
  });

  it('gives a freed worker to the waiting caller served least recently: one caller\'s queued programs take turns with another\'s', async () => {
    const sandbox = new QuickJsSandbox({ workers: 1, perCaller: 3 });
    try {
      const { host, release, holding } = holdingHost();
      const started: string[] = [];
      const run = (name: string, caller: string, program = `return ${JSON.stringify(name)};`) => sandbox.run(program, host, {}, { caller }).then((outcome) => (started.push(name), outcome));
      const first = run('alice 1', 'alice', 'return await api.shop.hold({});');
      await holding;
      // Queued in this order: two more of alice's, then bob's one.
      const rest = [run('alice 2', 'alice'), run('alice 3', 'alice'), run('bob 1', 'bob')];
      release();
      await Promise.all([first, ...rest]);
      // One worker runs them one at a time: bob, who has had none, goes before alice's second.
      expect(started).toEqual(['alice 1', 'bob 1', 'alice 2', 'alice 3']);
    } finally {
      await sandbox.close();
    }
  });

  it('stops a worker that has run nothing for idleMs, giving its memory back, and starts another for the next program', async () => {
    const sandbox = new QuickJsSandbox({ workers: 1, idleMs: 300 });
    try {
      const { host } = holdingHost();
      expect(sandbox.workerCount).toBe(0);
      expect(await sandbox.run('return 1;', host)).toMatchObject({ ok: true, value: 1 });
      expect(sandbox.workerCount).toBe(1);
      // Waits for the event (a timer in this process), bounded only against a broken sandbox.
      for (const until = Date.now() + 30_000; sandbox.workerCount > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(sandbox.workerCount).toBe(0);
      expect(await sandbox.run('return 2;', host)).toMatchObject({ ok: true, value: 2 });
      expect(sandbox.workerCount).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it('answers busy, naming CODE_MODE_QUEUE, when as many programs as the queue holds already wait', async () => {
    const sandbox = new QuickJsSandbox({ workers: 1, queue: 2 });
    try {
      const { host, release, holding } = holdingHost();
      const first = sandbox.run('return await api.shop.hold({});', host);
      await holding;
      const waiting = [sandbox.run('return 1;', host), sandbox.run('return 2;', host)];
      expect(await sandbox.run('return 3;', host)).toMatchObject({ ok: false, failure: { kind: 'busy', message: expect.stringContaining('2 programs are already waiting for a worker (CODE_MODE_QUEUE)') } });
      release();
      expect(await Promise.all([first, ...waiting])).toMatchObject([{ ok: true }, { ok: true, value: 1 }, { ok: true, value: 2 }]);
    } finally {
      await sandbox.close();
    }
  });

  it('counts the wait for a worker against the wall limit: past it the program is answered without running', async () => {
    const sandbox = new QuickJsSandbox({ workers: 1 });
    try {
      const { host, release, holding } = holdingHost();
      const first = sandbox.run('return await api.shop.hold({});', host);
      await holding;
      expect(await sandbox.run('return "late";', host, { wallMs: 300 })).toMatchObject({ ok: false, failure: { kind: 'limit', limit: 'wallMs', message: expect.stringContaining('waited 300 ms for a worker without starting') } });
      release();
      expect(await first).toMatchObject({ ok: true, value: 'held' });
    } finally {
      await sandbox.close();
    }
  });

  it('answers as values when it closes: a program waiting for a worker and one sent after close are stopped, never thrown', async () => {
    const sandbox = new QuickJsSandbox({ workers: 1 });
    const { host, holding } = holdingHost();
    const first = sandbox.run('return await api.shop.hold({});', host);
    await holding;
    const waiting = sandbox.run('return "waiting";', host);
    const closed = sandbox.close(0);
    const stopped = { ok: false, failure: { kind: 'stopped', message: 'The program was stopped: the server is shutting down. Run it again in a moment.' } };
    expect(await waiting).toMatchObject(stopped);
    expect(await first).toMatchObject(stopped);
    await closed;
    expect(await sandbox.run('return "late";', host)).toMatchObject(stopped);
  });
});
