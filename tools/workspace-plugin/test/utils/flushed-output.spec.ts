import { Writable } from 'node:stream';
import { untilHandedOn } from '../../src/utils/flushed-output';

describe("an executor's output, handed on before it ends", () => {
  it('waits for a reader that takes what is queued slowly, for as long as it keeps taking it', async () => {
    let taken = 0;
    // A reader that takes one chunk each 40 ms: 60 chunks take about 2.4 s, longer than the unread bound of 1 s.
    const slow = new Writable({ highWaterMark: 1, write: (_chunk, _encoding, next) => void setTimeout(() => (taken++, next()), 40) });
    for (let i = 0; i < 60; i++) slow.write(`line ${i}\n`);
    await untilHandedOn(slow);
    expect(taken).toBeGreaterThanOrEqual(60);
  });

  it('resolves at once when every write has completed, without waiting on any timer', async () => {
    let handedOn = 0;
    const prompt = new Writable({ write: (_chunk, _encoding, next) => (handedOn++, next()) });
    prompt.write('a short report\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(prompt.writableLength).toBe(0);
    // With the clock stopped, only an answer that needs no timer can come.
    jest.useFakeTimers();
    try {
      await expect(untilHandedOn(prompt)).resolves.toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
    expect(handedOn).toBe(1);
  });

  it('gives up on a stream that takes nothing, so the executor still ends', async () => {
    const stuck = new Writable({ write: () => undefined });
    stuck.write('a report nobody reads\n');
    const started = Date.now();
    await untilHandedOn(stuck);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
