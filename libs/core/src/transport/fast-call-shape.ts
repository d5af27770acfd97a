import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type MessageClassification,
} from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';

/**
 * The shape of a `tools/call` a fast path takes (over HTTP, `http/fast-calls.ts`; over stdio,
 * `stdio/stdio-fast-calls.ts`): a JSON-RPC request the SDK would let through to its handler, with
 * nothing to carry but the tool's name and arguments (and, in 2026-07-28, the envelope).
 */

/** The only `_meta` keys a 2026-07-28 call on a fast path may carry: the envelope without a log level. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
/** The only params a call on a fast path may carry: no task, no retry material (`requestState`, `inputResponses`); what `_meta` may hold is the era's and transport's. */
export const CALL_PARAMS: ReadonlySet<string> = new Set(['name', 'arguments', '_meta']);
/** The members of a JSON-RPC request: a message with any other is the SDK's to judge. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);
/** A tool name its `Mcp-Name` header carries as it is (no Base64 sentinel, nothing to decode). */
const PLAIN_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;

/** Whether `message` is a JSON-RPC request as the SDK's schema has it: its members only, `jsonrpc` 2.0, an id that is a string or a safe integer. */
export function isRequest(message: Record<string, unknown>): boolean {
  const id = message['id'];
  return hasOnly(message, REQUEST_MEMBERS) && message['jsonrpc'] === '2.0' && (typeof id === 'string' || Number.isSafeInteger(id));
}

/** A call's params when they hold a plain name, arguments that are an object (or none), and no member but `allowed`. */
export function plainParams(params: unknown, allowed: ReadonlySet<string>): Record<string, unknown> | undefined {
  if (!isPlainObject(params) || typeof params['name'] !== 'string' || !PLAIN_NAME.test(params['name'])) return undefined;
  return hasOnly(params, allowed) && (params['arguments'] === undefined || isPlainObject(params['arguments'])) ? params : undefined;
}

/** What a call's `_meta` may hold besides a 2026-07-28 envelope (over stdio; over HTTP in the 2025 era): a progress token, for the progress the call reports. */
const PROGRESS_TOKEN = 'progressToken';

/**
 * A call's `_meta` (absent, or a plain object), split as the SDK's `liftWireOnlyMaterial`
 * splits it: the envelope's keys (only where `envelope` allows them), and what stays in `_meta`
 * for the handler (a progress token that is a string or a safe integer, or nothing); undefined
 * when it holds anything else.
 */
export function splitCallMeta(meta: unknown, envelope: boolean): { envelope: Record<string, unknown>; kept: Record<string, unknown> | undefined } | undefined {
  if (meta === undefined) return { envelope: {}, kept: undefined };
  if (!isPlainObject(meta)) return undefined;
  const split: { envelope: Record<string, unknown>; kept: Record<string, unknown> | undefined } = { envelope: {}, kept: undefined };
  for (const key in meta) {
    const value = meta[key];
    if (key === PROGRESS_TOKEN && (typeof value === 'string' || Number.isSafeInteger(value))) split.kept = { [PROGRESS_TOKEN]: value };
    else if (envelope && ENVELOPE_KEYS.has(key)) split.envelope[key] = value;
    else return undefined;
  }
  return split;
}

/** Envelopes the SDK's classifier found valid, by their JSON and version: a client sends the same one on every call. Enough for every client release calling one replica. */
const validEnvelopes = new LRUCache<string, MessageClassification>({ max: 512 });

/**
 * The SDK's classification of a 2026-07-28 `tools/call` (a JSON-RPC request naming `name`) when
 * it is served modern at `version`: what `classifyInboundRequest` decides of it with standard
 * headers that agree with its body. Its envelope's validation (a Zod parse, 5 µs) is what costs:
 * an envelope already found valid with this version is not parsed again; the classifier decides
 * nothing else about such a request.
 */
export function modernClassification(message: Record<string, unknown>, version: string, name: string, meta: Record<string, unknown>): MessageClassification | undefined {
  const key = `${version} ${JSON.stringify(meta)}`;
  const known = validEnvelopes.get(key);
  if (known) return known;
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: version, mcpMethodHeader: 'tools/call', mcpNameHeader: name, body: message });
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request' || outcome.classification.revision !== version) return undefined;
  validEnvelopes.set(key, outcome.classification);
  return outcome.classification;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function hasOnly(record: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in record) if (!allowed.has(key)) return false;
  return true;
}
