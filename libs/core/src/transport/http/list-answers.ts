import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { classifyInboundRequest, isJsonContentType, SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import type { CacheScope, ServerDefinition } from '../../server/build-server';
import type { CompiledView } from '../../compiled/tool-catalog';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { listHash } from '../../wire/list-hash';
import { LEGACY_VERSIONS, MODERN_REVISIONS } from '../../wire/protocol-revisions';
import { headerValue } from '../guards/request-target';

/** The list operations answered from bytes serialised once. */
const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);
/** `ping` (a 2025-era method: 2026-07-28 removed it): an empty result, without an ETag. */
const PING = 'ping';
/** What the SDK's 2026-07-28 codec adds to a result built with no cache hint of its own (a view's resources/read). */
const DEFAULT_HINT: ListHint = { ttlMs: 0, cacheScope: 'private' };

/** The 2026-07-28 cache fields of a mount's lists: the server's `listTtlMs`, and `public` where no token shapes them. */
export interface ListHint {
  ttlMs: number;
  cacheScope: CacheScope;
}
/** The most serialised list bytes kept: past it the least recently served lists are dropped (and rebuilt when asked again). */
const DEFAULT_BUDGET_BYTES = 64 * 2 ** 20;

/** One list, serialised for both eras, with the hash of its content (sent as ETag; `ping` has none). */
interface SerialisedList {
  modern: Buffer;
  legacy: Buffer;
  etag?: string;
}

/**
 * Answers `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` (and
 * `resources/read` of a tool's view: a fixed page, often hundreds of kilobytes) over
 * stateless HTTP from bytes serialised once per list (per selection, for tools), instead of
 * building an SDK server, validating and serialising a list that never changes, per request. The
 * bytes are what the SDK sends, field for field (a test compares them with the SDK's own answer),
 * and anything the SDK would treat differently (an unknown revision, a cursor, a session, an
 * Accept or Content-Type the SDK refuses) still goes to the SDK.
 */
export class ListAnswers {
  /** Serialised answers by owner and key, least recently served evicted first past the byte budget. */
  readonly #lists: LRUCache<string, SerialisedList>;
  /** A number per owner (a view, its lists, a server, a tool's view), for the cache's keys; an owner gone is forgotten with it. */
  readonly #owners = new WeakMap<object, number>();
  #nextOwner = 0;

  constructor(budgetBytes = DEFAULT_BUDGET_BYTES) {
    this.#lists = new LRUCache({ maxSize: budgetBytes, sizeCalculation: (list) => Math.max(1, list.modern.length + list.legacy.length) });
  }

  /** Answers `parsed` from cache and returns true, or returns false for the SDK to answer. */
  tryAnswer(server: ServerDefinition, view: CatalogSlice, req: IncomingMessage, res: ServerResponse, parsed: object, sessions: boolean, hint: ListHint): boolean {
    const message = parsed as { method?: unknown; id?: unknown; params?: { cursor?: unknown; uri?: unknown } };
    const read = message.method === 'resources/read' ? readableView(server, view, message.params?.uri) : undefined;
    if (typeof message.method !== 'string' || (!LIST_METHODS.has(message.method) && !read && message.method !== PING)) return false;
    if (typeof message.id !== 'string' && typeof message.id !== 'number') return false;
    if (message.params?.cursor !== undefined || !isJsonContentType(req.headers['content-type'] ?? '')) return false;
    const era = eraOf(req, parsed, sessions);
    const list = era && this.#answerOf(server, view, message.method, era, read, hint);
    if (!list) return false;
    send(res, list, era, message.id);
    return true;
  }

  /** The serialised answer to `method`, or undefined for the SDK to answer. */
  #answerOf(server: ServerDefinition, view: CatalogSlice, method: string, era: 'modern' | 'legacy', read: CompiledView | undefined, hint: ListHint): SerialisedList | undefined {
    if (read) return this.#viewFor(server, read);
    // 2026-07-28 has no `ping` (the SDK answers it -32601): only a 2025-era one is answered here.
    if (method === PING) return era === 'legacy' ? this.#cached(server, PING, server, {}) : undefined;
    return this.#listFor(server, view, method, hint);
  }

  #listFor(server: ServerDefinition, view: CatalogSlice, method: string, hint: ListHint): SerialisedList | undefined {
    const result = method === 'tools/list' ? view.listResult : view.lists[method as keyof CatalogSlice['lists']];
    // Prompt and resource lists are shared by every view with the same scopes: serialised once for all.
    return result && this.#cached(method === 'tools/list' ? view : view.lists, `${method} ${hint.ttlMs} ${hint.cacheScope}`, server, result, hint);
  }

  /** A view's `resources/read` answer, serialised once per view (it is the same for every caller allowed to read it). */
  #viewFor(server: ServerDefinition, view: CompiledView): SerialisedList {
    return this.#cached(view, 'resources/read', server, { contents: [view.contents] }, DEFAULT_HINT);
  }

  /** `result` serialised once under `owner` and `key` (with `hint`'s cache fields, when it has them); it becomes the most recently served. An answer larger than the whole budget is serialised per request. */
  #cached(owner: object, key: string, server: ServerDefinition, result: object, hint?: ListHint): SerialisedList {
    let id = this.#owners.get(owner);
    if (id === undefined) this.#owners.set(owner, (id = this.#nextOwner++));
    const cacheKey = `${id} ${key}`;
    const cached = this.#lists.get(cacheKey);
    if (cached) return cached;
    const answer = serialise(result, { name: server.name, version: server.version }, hint);
    this.#lists.set(cacheKey, answer);
    return answer;
  }
}

const SSE_END = Buffer.from('\n\n');

/** Writes a serialised answer for `era` with the request's id: JSON for 2026-07-28, one SSE event for the 2025 era. */
function send(res: ServerResponse, list: SerialisedList, era: 'modern' | 'legacy', requestId: string | number): void {
  const id = Buffer.from(`${JSON.stringify(requestId)}}`);
  if (era === 'modern') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': list.modern.length + id.length, ...(list.etag && { etag: list.etag }) });
  } else {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', ...(list.etag && { etag: list.etag }) });
  }
  res.write(era === 'modern' ? list.modern : list.legacy);
  res.end(era === 'modern' ? id : Buffer.concat([id, SSE_END]));
}

/**
 * The view `uri` names, when this request's view of the catalog lists it (the caller may call one
 * of its tools): its HTML never changes, so its answer is served like a list's. Anything else
 * (another resource, a view the caller may not read) goes to the SDK.
 */
function readableView(server: ServerDefinition, view: CatalogSlice, uri: unknown): CompiledView | undefined {
  if (typeof uri !== 'string') return undefined;
  const compiled = server.catalog.toolViews.get(uri);
  return compiled && view.lists['resources/list']?.resources.some((resource) => resource.uri === uri) ? compiled : undefined;
}

/** Which era's answer to write, or undefined when the SDK must answer (refusal, session, other revision). */
function eraOf(req: IncomingMessage, parsed: object, sessions: boolean): 'modern' | 'legacy' | undefined {
  const accept = req.headers['accept'] ?? '';
  if (!accept.includes('application/json')) return undefined;
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headerValue(req, 'mcp-protocol-version'),
    mcpMethodHeader: headerValue(req, 'mcp-method'),
    mcpNameHeader: headerValue(req, 'mcp-name'),
    body: parsed,
  });
  if (outcome.kind === 'modern') return routed(req, parsed) && outcome.messageKind === 'request' && MODERN_REVISIONS.has(outcome.classification.revision ?? '') ? 'modern' : undefined;
  if (outcome.kind !== 'legacy' || outcome.reason !== 'no-claim' || sessions || req.headers['mcp-session-id'] !== undefined) return undefined;
  if (!accept.includes('text/event-stream')) return undefined;
  return outcome.requestedVersion === undefined || LEGACY_VERSIONS.has(outcome.requestedVersion) ? 'legacy' : undefined;
}

/**
 * Whether a 2026-07-28 request's headers repeat its method (Mcp-Method) and a read's URI (Mcp-Name);
 * one whose headers are missing or disagree gets the SDK's refusal (400, -32020), not a cached answer.
 */
function routed(req: IncomingMessage, parsed: object): boolean {
  const message = parsed as { method?: unknown; params?: { uri?: unknown } };
  if (headerValue(req, 'mcp-method')?.trim() !== message.method) return false;
  return message.method !== 'resources/read' || headerValue(req, 'mcp-name')?.trim() === message.params?.uri;
}

/**
 * The answer's bytes up to the request id, for each era: the id and the closing brace are written
 * per request. A list's carry its cache fields (`hint`) and an ETag; `ping`'s neither.
 */
function serialise(result: object, serverInfo: { name: string; version: string }, hint: ListHint | undefined): SerialisedList {
  const legacyResult = JSON.stringify(result);
  const modern = { resultType: 'complete', ...(hint && { ttlMs: hint.ttlMs, cacheScope: hint.cacheScope }), _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  const modernResult = `${legacyResult.slice(0, -1)}${legacyResult.length > 2 ? ',' : ''}${JSON.stringify(modern).slice(1)}`;
  return {
    modern: Buffer.from(`{"result":${modernResult},"jsonrpc":"2.0","id":`),
    legacy: Buffer.from(`event: message\ndata: {"result":${legacyResult},"jsonrpc":"2.0","id":`),
    ...(hint && { etag: `"${listHash(legacyResult)}"` }),
  };
}
