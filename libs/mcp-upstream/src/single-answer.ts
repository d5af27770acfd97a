import type { IncomingMessage } from 'node:http';

/**
 * What an event stream answering one POST turned out to be: only the request's own answer (its
 * JSON), or a stream to hand on as it is, with the bytes read so far and, when it ended while
 * being read here, how.
 */
export type EventStreamAnswer = { kind: 'answer'; json: string } | { kind: 'stream'; prefix: Buffer[]; ended?: { error?: unknown } };

/**
 * A blank line, which ends an event: two line ends, each CRLF, LF or CR (the SSE grammar allows
 * each; a CR followed by LF is one line end, never two). Searched in bytes read as latin1, one
 * character a byte, so the offsets are the bytes'.
 */
const BLANK_LINE = /(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/g;
const LINE_END = /\r\n|\n|\r/;
/** Bytes of what was searched before that a blank line found in the next chunk may begin with. */
const CARRY = 3;

export function readSingleAnswer(incoming: IncomingMessage, settle: (answer: EventStreamAnswer) => void): void {
  const prefix: Buffer[] = [];
  // The bytes of the event being read; only each new chunk (and the few bytes before it) is searched for its end.
  let event: Buffer[] = [];
  let carry = Buffer.alloc(0);
  const finish = (result: EventStreamAnswer) => {
    incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    settle(result);
  };
  const onData = (chunk: Buffer) => {
    prefix.push(chunk);
    for (let fresh = chunk; fresh.length > 0; ) {
      const window = carry.length > 0 ? Buffer.concat([carry, fresh]) : fresh;
      BLANK_LINE.lastIndex = 0;
      const blank = BLANK_LINE.exec(window.toString('latin1'));
      if (!blank) {
        event.push(fresh);
        carry = Buffer.from(window.subarray(-CARRY));
        return;
      }
      // The event: what came before this chunk, less the carried bytes that are in the window, then the window up to the blank line.
      const before = Buffer.concat(event);
      const data = eventData(Buffer.concat([before.subarray(0, before.length - carry.length), window.subarray(0, blank.index)]).toString('utf8'));
      fresh = window.subarray(blank.index + blank[0].length);
      event = [];
      carry = Buffer.alloc(0);
      if (data === undefined) continue;
      if (data !== null && isAnswer(data)) return finish({ kind: 'answer', json: data });
      // Paused until the stream handed on reads on: its reader attaches after this.
      incoming.pause();
      return finish({ kind: 'stream', prefix });
    }
  };
  const onEnd = () => finish({ kind: 'stream', prefix, ended: {} });
  const onError = (error: unknown) => finish({ kind: 'stream', prefix, ended: { error } });
  const onClose = () => {
    if (!incoming.complete) onError(new TypeError('terminated', { cause: new Error('the connection closed before the body ended') }));
  };
  incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
}

/** An event's data (its `data:` lines joined), `undefined` for an event with none (or empty), `null` for an event of a type other than `message`. */
function eventData(event: string): string | null | undefined {
  const data: string[] = [];
  let type = '';
  for (const line of event.split(LINE_END)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
    if (field === 'data') data.push(value);
    else if (field === 'event') type = value;
  }
  // As an EventSource does, an event whose data is empty is not dispatched (a 2025-11-25 server's priming event).
  const joined = data.join('\n');
  if (joined === '') return undefined;
  return type === '' || type === 'message' ? joined : null;
}

/** Whether `data` is one JSON-RPC answer (a result or an error, never a notification or request, which carry a `method`). */
function isAnswer(data: string): boolean {
  try {
    const message = JSON.parse(data) as unknown;
    return typeof message === 'object' && message !== null && !Array.isArray(message) && 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
  } catch {
    return false;
  }
}
