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

  it('gives up on a stream that takes nothing, so the executor still ends', async () => {
    const stuck = new Writable({ write: () => undefined });
    stuck.write('a report nobody reads\n');
    const started = Date.now();
    await untilHandedOn(stuck);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
