import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../../server/logging/logger';
import { clip } from '../../../helpers/client-text';
import { INVALID_REQUEST, SERVER_BUSY } from '../../jsonrpc-errors';
import { webRequest } from '../fetch-bridge';
import { sendJsonRpcError } from '../http-replies';
import { SessionEventStore } from './session-event-store';
import { clientAddress, credentialBinding, sameBinding } from './session-binding';
import type { ServingLimits } from '../../serving-limits';

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** Whether it made any request after `initialize` (the `initialized` notification aside). */
  used: boolean;
  /** Where it was opened from: the per-client cap counts by this. */
  client: string;
  /** The credential headers it was opened with, as a digest: only the same ones find it again. */
  binding: Buffer;
}

export type SessionLimits = Pick<ServingLimits, 'maxSessions' | 'sessionIdleTimeoutMs' | 'sessionIdleUnusedMs' | 'maxSessionsPerClient' | 'streamKeepAliveMs'>;

const NOT_FOUND = 'Session not found: it expired or was closed. Send initialize (without mcp-session-id) to open a new one.';

/**
 * 2025-era sessions (`MCP_SESSIONS=on`): an `initialize` opens a session with its own SDK `Server`
 * on a sessionful streamable HTTP transport, and later requests find it by `mcp-session-id`. That
 * is what lets a 2025-era client answer server-to-client requests (elicitation, sampling) and
 * receive resource-update notifications over HTTP. It costs memory per session and ties a client to
 * the replica that holds its session (route by the `mcp-session-id` header behind a balancer).
 *
 * A session trusts no caller: it answers only requests with the credential headers it was opened
 * with (any other caller gets the same 404 as for an unknown id), one client address holds at most
 * `maxSessionsPerClient`, and a session never used after `initialize` expires early.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  /** Sessions per client address, counting those whose `initialize` is being answered. */
  readonly #perClient = new Map<string, number>();
  #opening = 0;
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: (context?: McpRequestContext) => Server,
    private readonly credentialHeaders: readonly string[],
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
  ) {
    const shortest = Math.min(limits.sessionIdleTimeoutMs, limits.sessionIdleUnusedMs);
    this.#sweeper = setInterval(() => this.closeIdle(), Math.max(1_000, Math.min(60_000, shortest / 4)));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Serves one 2025-era request: in its session, or opening one with `initialize`. */
  async handle(req: IncomingMessage, res: ServerResponse, parsed?: unknown): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.#sessions.get(id);
      if (!session || !sameBinding(session.binding, credentialBinding(req, this.credentialHeaders))) {
        return sendJsonRpcError(res, 404, INVALID_REQUEST, NOT_FOUND);
      }
      session.lastSeen = Date.now();
      if (!session.used && !isOnlyInitialized(parsed)) session.used = true;
      return session.transport.handleRequest(req, res, parsed);
    }
    if (req.method !== 'POST' || !isInitialize(parsed)) {
      return sendJsonRpcError(res, 400, INVALID_REQUEST, 'Bad Request: no mcp-session-id header. This server keeps 2025-era sessions: send initialize first, then the session id it returns.');
    }
    const client = clientAddress(req);
    if ((this.#perClient.get(client) ?? 0) >= this.limits.maxSessionsPerClient) {
      this.logger.warn('session refused: too many from one client address', { client, limit: this.limits.maxSessionsPerClient });
      return sendJsonRpcError(res, 429, SERVER_BUSY, 'Too many open sessions from this address (MAX_SESSIONS_PER_CLIENT): end unused ones with DELETE, or retry later.', { 'retry-after': '1' });
    }
    if (this.#sessions.size + this.#opening >= this.limits.maxSessions) {
      return sendJsonRpcError(res, 503, SERVER_BUSY, 'Too many open sessions; retry shortly.', { 'retry-after': '1' });
    }
    return this.open(req, res, parsed, client);
  }

  /** Ends every session's standalone GET stream, so open listeners do not hold a drain to its timeout. */
  endStreams(): void {
    for (const session of this.#sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  /** Closes every session (at shutdown, after the drain). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.keys()];
    await Promise.all(sessions.map((id) => this.close(id)));
  }

  private async open(req: IncomingMessage, res: ServerResponse, parsed: unknown, client: string): Promise<void> {
    // Counted before the first await, so concurrent initializes cannot pass the caps together.
    this.#opening++;
    this.count(client, +1);
    let registered = false;
    // The session keeps the selection (`?toolsets=`, X-MCP-Toolsets, …) its initialize request made.
    const server = this.factory({ era: 'legacy', requestInfo: webRequest(req) });
    const binding = credentialBinding(req, this.credentialHeaders);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: a client that loses one reconnects with Last-Event-ID after this long.
      eventStore: new SessionEventStore(),
      retryInterval: 1_000,
      keepAliveMs: this.limits.streamKeepAliveMs,
      onsessioninitialized: (sessionId) => {
        registered = true;
        this.#sessions.set(sessionId, { transport, server, lastSeen: Date.now(), used: false, client, binding });
      },
      onsessionclosed: (sessionId) => void this.forget(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    transport.onerror = (error) => this.logger.warn('session transport error', { error: clip(error.message) });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsed);
    } finally {
      this.#opening--;
      if (!registered) this.count(client, -1);
    }
  }

  /** Drops a session from the books (once), releasing its place under the caps. */
  private forget(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    this.count(session.client, -1);
    return session;
  }

  private async close(id: string): Promise<void> {
    await this.forget(id)?.transport.close().catch(() => undefined);
  }

  private count(client: string, delta: number): void {
    const count = (this.#perClient.get(client) ?? 0) + delta;
    if (count > 0) this.#perClient.set(client, count);
    else this.#perClient.delete(client);
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      const limit = session.used ? this.limits.sessionIdleTimeoutMs : this.limits.sessionIdleUnusedMs;
      if (now - session.lastSeen > limit) void this.close(id);
    }
  }
}

/** Whether a message (or batch) is nothing but the `notifications/initialized` that follows `initialize`. */
function isOnlyInitialized(parsed: unknown): boolean {
  return methodsOf(parsed).every((method) => method === 'notifications/initialized');
}

function isInitialize(parsed: unknown): boolean {
  return methodsOf(parsed).includes('initialize');
}

/** The `method` of each message of a parsed body, one message or a batch. */
function methodsOf(parsed: unknown): unknown[] {
  return (Array.isArray(parsed) ? parsed : [parsed]).map((message) => (message as { method?: unknown } | null)?.method);
}
