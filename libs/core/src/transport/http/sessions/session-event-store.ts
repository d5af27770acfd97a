import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * The last events of one 2025-era session's SSE streams, so a client whose stream dropped can
 * resume it with `Last-Event-ID` (SEP-1699). Bounded: the oldest events go first.
 */
export class SessionEventStore implements EventStore {
  readonly #events: { id: EventId; streamId: StreamId; message: JSONRPCMessage }[] = [];
  #counter = 0;

  constructor(private readonly capacity = 1_000) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${++this.#counter}`;
    this.#events.push({ id, streamId, message });
    if (this.#events.length > this.capacity) this.#events.shift();
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.find((event) => event.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const index = this.#events.findIndex((event) => event.id === lastEventId);
    if (index < 0) throw new Error(`Event ${lastEventId} is no longer kept; reconnect without Last-Event-ID.`);
    const { streamId } = this.#events[index];
    for (const event of this.#events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
