import { ProtocolError, type JSONRPCMessage, type Transport, type TransportSendOptions } from '@modelcontextprotocol/client';

/** What marks the error a request gets when its answer stream ended without its answer (see answerEndedStreams). */
const STREAM_ENDED = 'toolsets:upstream-stream-ended';

type RequestId = string | number;

/**
 * `transport` (streamable HTTP) made to answer each request whose answer stream the upstream ends
 * without its answer, which the SDK's client does not: it passes no `onRequestStreamEnd` for
 * ordinary requests, so a request whose stream was cut (the upstream stopped, crashed or restarted
 * mid-call, or a proxy between dropped the connection) waited for its deadline. Here the request
 * gets, at once, an error the caller's ToolError says as such (isEndedStream). A request the client
 * gave up on (cancelled, or past its deadline) is no longer waited for.
 */
export function answerEndedStreams<T extends Transport>(transport: T): T {
  const waiting = new Set<RequestId>();
  let downstream: Transport['onmessage'];
  const receive: NonNullable<Transport['onmessage']> = (message, extra) => {
    const { id } = message as { id?: RequestId };
    if (id !== undefined && !('method' in message)) waiting.delete(id);
    downstream?.(message, extra);
  };
  // The transport calls `this.onmessage`; the client (and the raw channel) set it.
  Object.defineProperty(transport, 'onmessage', { configurable: true, enumerable: true, get: () => receive, set: (handler: Transport['onmessage']) => (downstream = handler) });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
    const sent = message as { method?: string; id?: RequestId; params?: { requestId?: RequestId } };
    if (sent.method === 'notifications/cancelled' && sent.params?.requestId !== undefined) waiting.delete(sent.params.requestId);
    if (sent.method === undefined || sent.id === undefined) return send(message, options);
    const id = sent.id;
    waiting.add(id);
    options?.requestSignal?.addEventListener('abort', () => waiting.delete(id), { once: true });
    const onRequestStreamEnd = () => {
      options?.onRequestStreamEnd?.();
      if (!waiting.delete(id)) return;
      receive({ jsonrpc: '2.0', id, error: { code: -32000, message: 'The upstream ended its answer stream without answering this request.', data: { [STREAM_ENDED]: true } } });
    };
    return send(message, { ...options, onRequestStreamEnd }).catch((error: unknown) => {
      waiting.delete(id);
      throw error;
    });
  };
  return transport;
}

/** Whether `error` is the one answerEndedStreams gave a request whose answer stream ended without it. */
export function isEndedStream(error: unknown): boolean {
  return error instanceof ProtocolError && (error.data as Record<string, unknown> | undefined)?.[STREAM_ENDED] === true;
}
