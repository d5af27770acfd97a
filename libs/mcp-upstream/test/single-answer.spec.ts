import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { readSingleAnswer, type EventStreamAnswer } from '../src/single-answer';

const ANSWER = '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"naïve ✓"}]}}';
const PROGRESS = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1}}';

/** Feeds `bytes` to readSingleAnswer in pieces of `size` bytes, as a socket might deliver them; what it settled with. */
function read(bytes: Buffer, size: number, end = true): EventStreamAnswer | undefined {
  const incoming = Object.assign(new PassThrough(), { complete: false });
  let settled: EventStreamAnswer | undefined;
  readSingleAnswer(incoming as unknown as IncomingMessage, (answer) => (settled = answer));
  for (let at = 0; at < bytes.length && !settled; at += size) incoming.emit('data', bytes.subarray(at, at + size));
  if (end && !settled) {
    incoming.complete = true;
    incoming.emit('end');
  }
  return settled;
}

describe('reading an event stream answer for the one answer it carries', () => {
  // Every line end the SSE grammar allows, and a priming event (empty data) first, cut at every byte and in larger pieces.
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('finds the answer after a priming event with %s line ends, however the bytes are cut', (_name, le) => {
    const stream = Buffer.from(`id: 1${le}data:${le}${le}event: message${le}id: 2${le}data: ${ANSWER}${le}${le}`);
    for (const size of [1, 2, 3, 5, 7, 64, stream.length]) expect([size, read(stream, size)]).toEqual([size, { kind: 'answer', json: ANSWER }]);
  });

  it('takes a line end then a CRLF blank line, and a comment line, as an event end and nothing', () => {
    const stream = Buffer.from(`: keep-alive\n\ndata: ${ANSWER}\n\r\n`);
    for (const size of [1, 4, stream.length]) expect(read(stream, size)).toEqual({ kind: 'answer', json: ANSWER });
  });

  it('joins an answer written over several data lines', () => {
    // Cut after a comma, where the line end joining them is JSON's white space.
    const cut = ANSWER.indexOf(',') + 1;
    const [head, tail] = [ANSWER.slice(0, cut), ANSWER.slice(cut)];
    expect(read(Buffer.from(`data: ${head}\ndata:${tail}\n\n`), 1)).toEqual({ kind: 'answer', json: `${head}\n${tail}` });
  });

  it('hands on the stream at its first event that is not the answer, with every byte read up to there', () => {
    const stream = `id: 1\r\ndata: \r\n\r\ndata: ${PROGRESS}\r\n\r\ndata: ${ANSWER}\r\n\r\n`;
    for (const size of [1, 9, stream.indexOf('data: {"jsonrpc":"2.0","id"')]) {
      const settled = read(Buffer.from(stream), size, false);
      expect(settled?.kind).toBe('stream');
      // Handed on once the progress event is read, before the answer: the rest of the bytes follow from where these stop.
      const prefix = Buffer.concat((settled as { prefix: Buffer[] }).prefix).toString('utf8');
      expect([stream.startsWith(prefix), prefix.includes(PROGRESS), prefix.includes(ANSWER)]).toEqual([true, true, false]);
    }
  });

  it.each([
    ['an event of another type', `event: endpoint\ndata: ${ANSWER}\n\n`],
    ['data that is not JSON', 'data: {"jsonrpc":\n\n'],
    ['a batch', `data: [${ANSWER}]\n\n`],
    ['no answer before the end', 'id: 1\ndata: \n\n'],
    ['an answer not ended by a blank line', `data: ${ANSWER}\n`],
  ])('hands on the stream as it is for %s', (_name, stream) => {
    expect(read(Buffer.from(stream), 1)?.kind).toBe('stream');
  });
});
