import { ProtocolError, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { answersInOrder } from './answers-in-order';

/**
 * Requests the SDK's client will not send, sent on its own connection: a 2026-07-28 upstream's
 * tasks extension (`tools/call` answered with a task, `tasks/get`, `tasks/update`, `tasks/cancel`),
 * whose methods the SDK refuses on that era (they are the 2025-11-25 revision's names). Each goes
 * out through the connection's transport, so it travels as the SDK's own requests do (the HTTP
 * transport's headers, session and authorization, derived from the request's `_meta`; the stdio
 * child's pipe), and its answer is taken off the transport before the SDK sees it.
 */
export interface RawRequests {
  /** Sends `method` with `params`; resolves with the answer's `result`, rejects with a `ProtocolError` for a JSON-RPC error. */
  request(method: string, params: Record<string, unknown>, options: { signal: AbortSignal }): Promise<Record<string, unknown>>;
}

/** The prefix of the ids the raw requests carry: the SDK numbers its own, so these never meet its answers. */
const ID_PREFIX = 'toolsets-raw-';

/**
 * `inner`, as the SDK's client sees it (a proxy: every property and method is the transport's own,
 * so the client treats it as the transport it is), and the raw requests sent through it.
 */
export function withRawRequests<T extends Transport>(inner: T): { transport: T; raw: RawRequests } {
  const pending = new Map<string, { resolve: (result: Record<string, unknown>) => void; reject: (error: unknown) => void }>();
  let next = 0;
  let sdkOnMessage: Transport['onmessage'];
  let sdkOnClose: Transport['onclose'];
  const settle = (message: JSONRPCMessage): boolean => {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== 'string' || !id.startsWith(ID_PREFIX) || 'method' in message) return false;
    const waiting = pending.get(id);
    if (!waiting) return true;
    pending.delete(id);
    const answer = message as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
    if (answer.error) waiting.reject(new ProtocolError(answer.error.code, answer.error.message, answer.error.data));
    else waiting.resolve(answer.result ?? {});
    return true;
  };
  inner.onmessage = answersInOrder((message, extra) => {
    if (!settle(message)) sdkOnMessage?.(message, extra);
  });
  inner.onclose = () => {
    for (const waiting of pending.values()) waiting.reject(new Error('the connection to the upstream closed'));
    pending.clear();
    sdkOnClose?.();
  };
  const transport = new Proxy(inner, {
    set(target, property, value) {
      if (property === 'onmessage') sdkOnMessage = value as Transport['onmessage'];
      else if (property === 'onclose') sdkOnClose = value as Transport['onclose'];
      else (target as unknown as Record<PropertyKey, unknown>)[property] = value;
      return true;
    },
    get(target, property) {
      if (property === 'onmessage') return sdkOnMessage;
      if (property === 'onclose') return sdkOnClose;
      const value = (target as unknown as Record<PropertyKey, unknown>)[property];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const raw: RawRequests = {
    request(method, params, { signal }) {
      if (signal.aborted) return Promise.reject(signal.reason);
      const id = `${ID_PREFIX}${++next}`;
      return new Promise((resolve, reject) => {
        const abort = () => {
          pending.delete(id);
          reject(signal.reason);
        };
        signal.addEventListener('abort', abort, { once: true });
        const done = () => signal.removeEventListener('abort', abort);
        pending.set(id, {
          resolve: (result) => (done(), resolve(result)),
          reject: (error) => (done(), reject(error)),
        });
        inner.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage, { requestSignal: signal } as never).catch((error: unknown) => {
          if (!pending.delete(id)) return;
          done();
          reject(error);
        });
      });
    },
  };
  return { transport, raw };
}
