import { UpstreamConnection } from '../src';
import type { QuestionAnswerer } from '../src/upstream-questions';

/** A promise and what settles it, for a call the test ends itself. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("a stdio upstream's calls made one at a time", () => {
  const connection = new UpstreamConnection({ name: 'jobs', transport: { kind: 'stdio', command: 'none' }, secrets: {}, oneCallAtATime: true }, { kind: 'legacy' });
  const asker = (name: string): QuestionAnswerer => async () => ({ action: 'accept', content: { name } });

  it('runs each call once the calls before it are done, and one that gives up waiting keeps the order of the rest', async () => {
    const order: string[] = [];
    const first = gate();
    const running = connection.alone(asker('alice'), new AbortController().signal, async () => {
      order.push('alice starts');
      await first.opened;
      order.push('alice ends');
    });
    const impatient = new AbortController();
    const gaveUp = connection.alone(asker('bob'), impatient.signal, async () => void order.push('bob runs'));
    const third = connection.alone(asker('carol'), new AbortController().signal, async () => void order.push('carol runs'));
    impatient.abort(new Error('bob’s deadline passed'));
    await expect(gaveUp).rejects.toThrow('bob’s deadline passed');
    // Carol still waits for Alice, who is running.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['alice starts']);
    first.open();
    await Promise.all([running, third]);
    expect(order).toEqual(['alice starts', 'alice ends', 'carol runs']);
  });

  it('lets the next call run after one that failed', async () => {
    await expect(connection.alone(asker('alice'), new AbortController().signal, async () => Promise.reject(new Error('upstream gone')))).rejects.toThrow('upstream gone');
    await expect(connection.alone(asker('bob'), new AbortController().signal, async () => 'answered')).resolves.toBe('answered');
  });
});
