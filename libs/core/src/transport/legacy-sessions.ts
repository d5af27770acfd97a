import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../server/logger';
import { clip } from '../helpers/client-text';
import { INVALID_REQUEST, SERVER_BUSY, sendJsonRpcError } from './http-replies';
import { SessionEventStore } from './session-event-store';

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface SessionLimits {
  maxSessions: number;
  sessionIdleTimeoutMs: number;
}

/**
 * 2025-era sessions (`MCP_SESSIONS=on`): an `initialize` opens a session with its own SDK `Server`
 * on a sessionful streamable HTTP transport, and later requests find it by `mcp-session-id`. That
 * is what lets a 2025-era client answer server-to-client requests (elicitation, sampling) and
 * receive resource-update notifications over HTTP. It costs memory per session and ties a client to
 * the replica that holds its session (route by the `mcp-session-id` header behind a balancer).
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: (context?: McpRequestContext) => Server,
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
  ) {
    this.#sweeper = setInterval(() => this.closeIdle(), Math.max(1_000, Math.min(60_000, limits.sessionIdleTimeoutMs / 4)));
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
      if (!session) return sendJsonRpcError(res, 404, INVALID_REQUEST, `Session not found: it expired or was closed. Send initialize (without mcp-session-id) to open a new one.`);
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, parsed);
    }
    if (req.method !== 'POST' || !isInitialize(parsed)) {
      return sendJsonRpcError(res, 400, INVALID_REQUEST, 'Bad Request: no mcp-session-id header. This server keeps 2025-era sessions: send initialize first, then the session id it returns.');
    }
    if (this.#sessions.size >= this.limits.maxSessions) {
      return sendJsonRpcError(res, 503, SERVER_BUSY, 'Too many open sessions; retry shortly.', { 'retry-after': '1' });
    }
    const server = this.factory();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: a client that loses one reconnects with Last-Event-ID after this long.
      eventStore: new SessionEventStore(),
      retryInterval: 1_000,
      onsessioninitialized: (sessionId) => void this.#sessions.set(sessionId, { transport, server, lastSeen: Date.now() }),
      onsessionclosed: (sessionId) => void this.#sessions.delete(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    transport.onerror = (error) => this.logger.warn('session transport error', { error: clip(error.message) });
    await server.connect(transport);
    return transport.handleRequest(req, res, parsed);
  }

  /** Ends every session's standalone GET stream, so open listeners do not hold a drain to its timeout. */
  endStreams(): void {
    for (const session of this.#sessions.values()) session.transport.closeStandaloneSSEStream();
  }

  /** Closes every session (at shutdown, after the drain). */
  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.transport.close().catch(() => undefined)));
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.limits.sessionIdleTimeoutMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen >= cutoff) continue;
      this.#sessions.delete(id);
      void session.transport.close().catch(() => undefined);
    }
  }
}

function isInitialize(parsed: unknown): boolean {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'initialize');
}
