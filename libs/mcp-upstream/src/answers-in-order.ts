import type { Transport } from '@modelcontextprotocol/client';

type OnMessage = NonNullable<Transport['onmessage']>;

/**
 * `receive`, with each answer (a result or an error) handed on one microtask after it is read, and
 * every other message at once. The SDK's client passes a notification to its handler a microtask
 * after reading it, but settles an answer at once, which ends its request's progress handler: when
 * an upstream's last progress and its answer were read in one chunk (stdio lines, the events of one
 * HTTP read), the progress found no handler and was dropped ("Received a progress notification for
 * an unknown token"), more often the busier the machine. Answers taking the same microtask keep
 * the upstream's order.
 */
export function answersInOrder(receive: OnMessage): OnMessage {
  return (message, extra) => {
    if ('method' in message) receive(message, extra);
    else queueMicrotask(() => receive(message, extra));
  };
}
