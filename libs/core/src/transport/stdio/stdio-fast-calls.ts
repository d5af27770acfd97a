import { PROTOCOL_VERSION_META_KEY, SdkError, SdkErrorCode, type JSONRPCMessage, type JSONRPCRequest, type RequestMetaEnvelope } from '@modelcontextprotocol/server';
import type { CatalogSlice } from '../../selection/catalog-slice';
import type { DirectCalls } from '../../server/tools/direct-calls';
import type { TaskAnsweringServer } from '../../wire/task-answer';
import { encodeModernResult, thrownErrorAnswer } from '../../wire/sdk-mirror';
import { CALL_PARAMS, isPlainObject, isRequest, modernClassification, plainParams, splitCallMeta } from '../fast-call-shape';

type Id = string | number;
type Era = 'modern' | 'legacy';

/** The instance the SDK's stdio entry serves the connection with, once it is pinned. */
interface Pinned {
  era: Era;
  server: TaskAnsweringServer;
  /** The 2026-07-28 revision it was pinned to. */
  revision?: string;
}

/**
 * The stdio fast path: a `tools/call` with nothing to carry but the tool's name and arguments
 * (and a progress token, and in 2026-07-28 the envelope) is answered by the instance the SDK's `serveStdio` pinned the
 * connection to, through the handler that instance registers and in the context its protocol layer
 * would give it, without the SDK's line parsing, dispatch queue and protocol layer for that call.
 *
 * The connection counts as pinned once the SDK has answered, with a result, a request other than
 * `server/discover` after its factory made an instance: from then on the SDK's entry hands every
 * message to that instance (an `initialize` on a 2026-07-28 connection, refused there, included).
 * Until then, and for every other message, the SDK serves as it would without this.
 */
export class StdioFastCalls {
  #made: Pinned | undefined;
  #pinned: Pinned | undefined;
  /** Requests handed to the SDK before the connection was pinned, by id: whether a result to one pins it, and the revision its envelope names. */
  readonly #opening = new Map<Id, { pins: boolean; revision?: string }>();
  /** The calls running here, by id: a `notifications/cancelled` or the connection's end aborts them, as the SDK aborts its handlers. */
  readonly #running = new Map<Id, AbortController>();

  constructor(
    private readonly calls: DirectCalls,
    private readonly selected: CatalogSlice,
    private readonly writeLine: (line: string) => void,
  ) {}

  /** The SDK's factory made `server` for this connection's era (`serveStdio` calls it once, or twice when a probe gives way to the 2025 era). */
  made(era: Era, server: TaskAnsweringServer): void {
    this.#made = { era, server };
  }

  /** A message the SDK sends on the connection: a result to a request it was handed pins the connection to the instance it made. */
  sending(message: JSONRPCMessage): void {
    if (this.#pinned || !('id' in message) || 'method' in message) return;
    const opening = this.#opening.get(message.id as Id);
    this.#opening.delete(message.id as Id);
    if (!opening?.pins || !('result' in message) || !this.#made) return;
    this.#pinned = { ...this.#made, ...(this.#made.era === 'modern' && { revision: opening.revision }) };
    this.#opening.clear();
  }

  /**
   * Answers `value` (one line's JSON) when it is a call this path takes, and says so; anything
   * else goes on to the SDK, a `notifications/cancelled` of a call running here aborting it first.
   */
  take(value: unknown): boolean {
    if (!isPlainObject(value)) return false;
    if (value['method'] === 'notifications/cancelled') {
      this.cancel(value['params']);
      return false;
    }
    const pinned = this.#pinned;
    if (!pinned) {
      this.note(value);
      return false;
    }
    if (value['method'] !== 'tools/call' || !isRequest(value)) return false;
    const call = pinned.era === 'legacy' ? legacyCall(value) : modernCall(value, pinned);
    if (!call) return false;
    void this.answer(pinned, call);
    return true;
  }

  /** The connection ended: the calls still running are aborted as the SDK aborts its handlers when a connection closes. */
  close(): void {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const abort of this.#running.values()) abort.abort(error);
    this.#running.clear();
  }

  /** Before the connection is pinned: a request the SDK will answer, and whether a result to it means the SDK pinned an instance. */
  private note(value: Record<string, unknown>): void {
    const id = value['id'];
    if (typeof value['method'] !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return;
    const params = value['params'];
    const meta = isPlainObject(params) ? params['_meta'] : undefined;
    const revision = isPlainObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
    // `server/discover` is answered by a probe instance the 2025 era may still replace: no pin.
    if (this.#opening.size < 1_000) this.#opening.set(id, { pins: value['method'] !== 'server/discover', ...(typeof revision === 'string' && { revision }) });
  }

  private cancel(params: unknown): void {
    if (!isPlainObject(params)) return;
    this.#running.get(params['requestId'] as Id)?.abort(params['reason']);
  }

  private async answer(pinned: Pinned, call: { request: JSONRPCRequest; envelope?: RequestMetaEnvelope }): Promise<void> {
    const id = call.request.id;
    const abort = new AbortController();
    this.#running.set(id, abort);
    let answer: object;
    try {
      // As the SDK runs a handler: after the line's turn, never inside it.
      await Promise.resolve();
      const result = await this.calls.callOn(pinned.server, pinned.era, { ...call, signal: abort.signal, selected: this.selected });
      answer = { result: pinned.era === 'modern' ? encodeModernResult(result, this.calls.serverInfo) : result, jsonrpc: '2.0', id };
    } catch (error) {
      answer = thrownErrorAnswer(id, error);
    } finally {
      if (this.#running.get(id) === abort) this.#running.delete(id);
    }
    // A cancelled call gets no answer, as there.
    if (!abort.signal.aborted) this.writeLine(JSON.stringify(answer) + '\n');
  }
}

/** A 2025-era call the fast path takes: nothing in `_meta` but a progress token, no task. */
function legacyCall(message: Record<string, unknown>): { request: JSONRPCRequest } | undefined {
  const params = plainParams(message['params'], CALL_PARAMS);
  return params && splitCallMeta(params['_meta'], false) ? { request: message as unknown as JSONRPCRequest } : undefined;
}

/**
 * A 2026-07-28 call the fast path takes: an envelope the SDK finds valid, naming the pinned
 * revision, and nothing else in `_meta` but a progress token; the request as the SDK lifts it (the
 * envelope out of `_meta`, and `_meta` gone with it unless a progress token stays).
 */
function modernCall(message: Record<string, unknown>, pinned: Pinned): { request: JSONRPCRequest; envelope: RequestMetaEnvelope } | undefined {
  const params = plainParams(message['params'], CALL_PARAMS);
  const split = params && splitCallMeta(params['_meta'], true);
  const version = split?.envelope[PROTOCOL_VERSION_META_KEY];
  if (!params || !split || typeof version !== 'string' || version !== pinned.revision) return undefined;
  // Classified by its envelope alone (a progress token is the request's own, checked with it by the handler's wrapper).
  const envelopeOnly = { ...message, params: { ...params, _meta: split.envelope } };
  if (!modernClassification(envelopeOnly, version, params['name'] as string, split.envelope)) return undefined;
  const { _meta: _lifted, ...rest } = params;
  return { request: { ...(message as unknown as JSONRPCRequest), params: { ...rest, ...(split.kept && { _meta: split.kept }) } }, envelope: split.envelope as RequestMetaEnvelope };
}
