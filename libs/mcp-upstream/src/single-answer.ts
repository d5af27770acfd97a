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
const BLANK_LINE = /(?:\r\n|\n|\r(?!\n))(?:\r\n|\n|\r(?!\n))/;
const LINE_END = /\r\n|\n|\r/;
/** Bytes of what was searched before that a blank line found in the next chunk may begin with. */
const CARRY = 3;

/**
 * Reads the event stream a 2025-era upstream answers a POST with, to spare the SDK's transport its
 * web-stream reading (a `TextDecoderStream` and an event parser per answer: about a quarter of the
 * app's CPU per proxied HTTP call, BENCHMARKS.md §19). Most such streams carry one event, the
 * request's own answer, and end. When the first event with data is that answer (events without
 * data, such as a priming event, aside), `settle` gets its JSON at once, which the transport reads
 * as the JSON answer the server could have sent; the rest of the stream, which should end there,
 * is read to its end and dropped (the transport would have nothing to do with more). At a first
 * event that is anything else (a progress or log notification, a question, an event of another
 * type, data that is not an answer), `settle` gets the bytes read so far and the rest flows as the
 * stream it is, as it comes: nothing the upstream sends while the request runs waits for its end.
 */
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
    if (!incoming.complete) onError(cutBody());
  };
  incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
}

/** What a body the connection closed before its end fails with, as the platform's fetch says it. */
export const cutBody = () => new TypeError('terminated', { cause: new Error('the connection closed before the body ended') });

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
