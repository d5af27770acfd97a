import type { ServerResponse } from 'node:http';
import { messageFrame } from '../../../wire/sdk-mirror';
import { SERVER_BUSY } from '../../jsonrpc-errors';
import { sendJson } from '../http-replies';

/** A JSON-RPC request id, as a POST's body carried it. */
export type RequestId = string | number;

/** The ids of the JSON-RPC requests in a parsed POST body (a message or a 2025-03-26 batch); notifications and answers have none to answer. */
export function requestIds(parsed: object): RequestId[] {
  const ids: RequestId[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** What a request still running when the drain ends is told: the server stops it, and the client may send it again. */
export function cutMessage(drainTimeoutMs: number): string {
  return `Shutting down: this request was still running when the server's drain ended (DRAIN_TIMEOUT_MS, ${drainTimeoutMs} ms) and was stopped. Send it again: another replica, or this server once restarted, answers it.`;
}

/**
 * Answers the requests `res` carries with a JSON-RPC error (-32000) before the drain closes its
 * connection: a client whose request stream just ends gets no answer, and the SDK's client then
 * waits out its whole request timeout (60 s). As a 503 JSON body when no answer has begun (the
 * 2026-07-28 JSON answer, a batch), else as one message event each on the answer's open event
 * stream, which then ends. An answer already part-written as JSON cannot take another: false.
 * Whatever the request's own handler writes afterwards is dropped with the connection.
 */
export function answerCut(res: ServerResponse, ids: readonly RequestId[], message: string, batch: boolean): boolean {
  if (res.writableEnded || res.destroyed) return false;
  // The handler's own late write to an ended answer is an 'error' on it: nothing to report, and not a crash.
  res.on('error', () => undefined);
  const answers = ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: SERVER_BUSY, message } }));
  if (!res.headersSent) {
    sendJson(res, 503, batch ? answers : answers[0], { connection: 'close', 'retry-after': '1' });
    return true;
  }
  if (!isEventStream(res)) return false;
  // A batch's stream may already carry some of its answers: a client ignores an answer to an id it no longer waits for.
  for (const answer of answers) res.write(messageFrame(JSON.stringify(answer)));
  res.end();
  return true;
}

/**
 * Whether the answer under way is an event stream. Its head went out through `writeHead(status,
 * headers)` (the SDK's transports and the fast path), which keeps no header `getHeader` can read:
 * the head as sent (`_header`, which Node's own `ServerResponse` and Express's helpers read too) says.
 */
function isEventStream(res: ServerResponse): boolean {
  const contentType = res.getHeader('content-type');
  if (contentType !== undefined) return String(contentType).toLowerCase().startsWith('text/event-stream');
  const head = (res as ServerResponse & { _header?: unknown })._header;
  return typeof head === 'string' && /^content-type:[ \t]*text\/event-stream/im.test(head);
}
