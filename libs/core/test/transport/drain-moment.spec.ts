import { atQuietMoment, type ListenerActivity } from '../../src/transport/http/drain/drain';

/** A listener's connections as the drain sees them, driven by the test on Jest's fake clock. */
class FakeListener implements ListenerActivity {
  size = 4;
  idle = 2;
  #lastArrival = performance.now();

  arrive(): void {
    this.#lastArrival = performance.now();
  }

  sinceLastArrival(): number {
    return performance.now() - this.#lastArrival;
  }

  idleInBalancer(): number {
    return this.idle;
  }
}

const LIMITS = { drainQuietMs: 250, drainTimeoutMs: 10_000 };

describe('the moment the drain closes the listener (fake clock)', () => {
  let listener: FakeListener;
  let closedAt: number | undefined;
  let outcome: Promise<string>;
  const start = (limits = LIMITS) => {
    const began = performance.now();
    outcome = atQuietMoment(listener, limits, () => (closedAt = performance.now() - began));
  };

  beforeEach(() => {
    jest.useFakeTimers();
    listener = new FakeListener();
    closedAt = undefined;
  });
  afterEach(() => jest.useRealTimers());

  it('closes once no connection has arrived for DRAIN_QUIET_MS and the balancer holds idle connections', async () => {
    start();
    await jest.advanceTimersByTimeAsync(240);
    expect(closedAt).toBeUndefined();
    await jest.advanceTimersByTimeAsync(20);
    expect(closedAt).toBeGreaterThanOrEqual(250);
    await expect(outcome).resolves.toBe('found');
  });

  it('keeps accepting while connections keep arriving, and closes DRAIN_QUIET_MS after the last', async () => {
    start();
    for (let i = 0; i < 20; i++) {
      await jest.advanceTimersByTimeAsync(100);
      listener.arrive();
    }
    expect(closedAt).toBeUndefined();
    await jest.advanceTimersByTimeAsync(300);
    expect(closedAt).toBeGreaterThanOrEqual(2_000 + 250);
    expect(closedAt).toBeLessThan(2_000 + 300);
    await expect(outcome).resolves.toBe('found');
  });

  it('closes at DRAIN_TIMEOUT_MS when connections never stop, and says so', async () => {
    start({ drainQuietMs: 250, drainTimeoutMs: 1_000 });
    for (let i = 0; i < 15 && closedAt === undefined; i++) {
      await jest.advanceTimersByTimeAsync(100);
      listener.arrive();
    }
    expect(closedAt).toBeGreaterThanOrEqual(1_000);
    expect(closedAt).toBeLessThan(1_100);
    await expect(outcome).resolves.toBe('never_quiet');
  });

  it('waits, once quiet, up to 2 s for the balancer to hold idle connections, then closes anyway', async () => {
    listener.idle = 0;
    start();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(closedAt).toBeUndefined();
    listener.idle = 1;
    await jest.advanceTimersByTimeAsync(100);
    expect(closedAt).toBeUndefined();
    await jest.advanceTimersByTimeAsync(300);
    expect(closedAt).toBeGreaterThanOrEqual(250 + 2_000);
    await expect(outcome).resolves.toBe('no_idle');
  });

  it('closes at once with a quiet period of 0 even while every connection is busy: no balancer is in front to wait for', async () => {
    listener.idle = 0;
    start({ drainQuietMs: 0, drainTimeoutMs: 10_000 });
    await jest.advanceTimersByTimeAsync(5);
    expect(closedAt).toBeDefined();
    await expect(outcome).resolves.toBe('found');
  });

  it('closes at once with a quiet period of 0 and no connection open', async () => {
    listener.size = 0;
    listener.idle = 0;
    start({ drainQuietMs: 0, drainTimeoutMs: 10_000 });
    await jest.advanceTimersByTimeAsync(5);
    expect(closedAt).toBeDefined();
    await expect(outcome).resolves.toBe('found');
  });
});
