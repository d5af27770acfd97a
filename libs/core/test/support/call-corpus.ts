import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/** One generated POST to an MCP endpoint: its headers and its body, as bytes on the wire. */
export interface CorpusRequest {
  /** What the generator made, for a failure's message: its kind and the mutations applied. */
  label: string;
  headers: Record<string, string>;
  /** Header lines sent besides `headers`, a name more than once (`set-cookie: a=1`, `set-cookie: b=2`). */
  repeated: [string, string][];
  body: string;
  /** A well-formed `tools/call` (2026-07-28, or 2025-era without a session) nothing was done to: one the fast path must take. */
  clean: boolean;
}

/** The tools the corpus calls: each name, and a maker of arguments (valid or not) from a random source. */
export type ArgumentMakers = Readonly<Record<string, (random: Random) => unknown>>;

/** The `Mcp-Param-*` headers a 2026-07-28 client sends for a call of `name` with `args` (a tool's `x-mcp-header` arguments mirrored). */
export type HeaderMirror = (name: string, args: unknown) => Record<string, string>;

/** A seeded source of choices (mulberry32), so a corpus is the same on every run and a failure can be replayed. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A string of up to `max` characters drawn from ASCII, quotes and escapes, accents, and characters outside the BMP. */
  text(max: number): string {
    const alphabet = ['a', 'b', 'Z', '0', ' ', '"', '\\', '/', '\n', '\t', 'é', 'ß', '中', '😀', '\u2028', '<', '&', '\u0000'];
    let out = '';
    const length = this.int(0, max);
    for (let i = 0; i < length; i++) out += this.pick(alphabet);
    return out;
  }
}

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'corpus', version: '1.0.0' };

/** The envelope of a 2026-07-28 request from a client that declares nothing. */
function envelope(): Record<string, unknown> {
  return { [PROTOCOL_VERSION_META_KEY]: MODERN, [CLIENT_INFO_META_KEY]: { ...CLIENT_INFO }, [CLIENT_CAPABILITIES_META_KEY]: {} };
}

interface Draft {
  label: string[];
  headers: Record<string, string>;
  repeated?: [string, string][];
  message: Record<string, unknown>;
  /** A body to send instead of the message, when the draft is not JSON-RPC at all. */
  raw?: string;
}

/** A well-formed 2025-era `tools/call` of `name` with `args` (no session), and the headers its client sends. */
function legacyCall(id: unknown, name: string, args: unknown, random: Random): Draft {
  return {
    label: [`2025 call ${name}`],
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(random.chance(0.7) && { 'mcp-protocol-version': random.pick(['2025-06-18', '2025-11-25', '2025-03-26']) }) },
    message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
  };
}

/** A well-formed 2026-07-28 `tools/call` of `name` with `args`, and the headers its client sends. */
function modernCall(id: unknown, name: string, args: unknown, mirror: HeaderMirror = () => ({})): Draft {
  return {
    label: [`call ${name}`],
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name, ...mirror(name, args) },
    message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: envelope() } },
  };
}

const IDS: readonly unknown[] = [0, -1, 7, 2 ** 53 - 1, 2 ** 53 + 2, 1.5, 1e21, '', 'request-1', 'x'.repeat(300), '😀', null, {}, [], true];

type Mutation = (draft: Draft, random: Random, tools: readonly string[]) => void;
const params = (draft: Draft) => draft.message['params'] as Record<string, unknown>;
const meta = (draft: Draft) => params(draft)['_meta'] as Record<string, unknown>;

/** Everything a client (or an attacker) can get wrong, or send that the fast path must leave to the SDK. */
const MUTATIONS: Record<string, Mutation> = {
  id: (d, r) => (d.message['id'] = r.pick(IDS)),
  'no id': (d) => delete d.message['id'],
  'jsonrpc 1.0': (d) => (d.message['jsonrpc'] = '1.0'),
  'no jsonrpc': (d) => delete d.message['jsonrpc'],
  'no Mcp-Method': (d) => delete d.headers['mcp-method'],
  'Mcp-Method other': (d, r) => (d.headers['mcp-method'] = r.pick(['tools/list', 'tools/call ', ' tools/call', 'TOOLS/CALL'])),
  'no Mcp-Name': (d) => delete d.headers['mcp-name'],
  'Mcp-Name other': (d, r, tools) => (d.headers['mcp-name'] = r.pick([...tools, 'nope', '=?base64?ZWNobw==?=', ''])),
  'no version header': (d) => delete d.headers['mcp-protocol-version'],
  'version header other': (d, r) => (d.headers['mcp-protocol-version'] = r.pick(['2025-06-18', '2025-11-25', '2099-01-01', 'garbage', ' 2026-07-28'])),
  'no protocolVersion': (d) => delete meta(d)[PROTOCOL_VERSION_META_KEY],
  'protocolVersion other': (d, r) => (meta(d)[PROTOCOL_VERSION_META_KEY] = r.pick(['2025-11-25', '2099-01-01', 7, ''])),
  'no clientInfo': (d) => delete meta(d)[CLIENT_INFO_META_KEY],
  'clientInfo bad': (d, r) => (meta(d)[CLIENT_INFO_META_KEY] = r.pick([5, { name: 'x' }, { name: 1, version: '1' }, null, { name: 'x', version: '1', title: 'T', extra: true }])),
  'no clientCapabilities': (d) => delete meta(d)[CLIENT_CAPABILITIES_META_KEY],
  'clientCapabilities other': (d, r) => (meta(d)[CLIENT_CAPABILITIES_META_KEY] = r.pick([{ elicitation: 5 }, { elicitation: {} }, { sampling: {} }, null, [], { extensions: { 'io.modelcontextprotocol/tasks': {} } }])),
  'log level': (d, r) => (meta(d)[LOG_LEVEL_META_KEY] = r.pick(['debug', 'error', 'loud'])),
  'progress token': (d, r) => (meta(d)['progressToken'] = r.pick([1, 'p', null])),
  'trace context': (d) => (meta(d)['traceparent'] = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'),
  'other meta': (d) => (meta(d)['example.com/note'] = { a: 1 }),
  'meta not object': (d, r) => (params(d)['_meta'] = r.pick([null, 5, 'x', []])),
  'no meta': (d) => delete params(d)['_meta'],
  task: (d) => (params(d)['task'] = { ttl: 1000 }),
  'request state': (d, r) => (params(d)['requestState'] = r.pick(['junk', 5, ''])),
  'input responses': (d) => (params(d)['inputResponses'] = { 'elicit-1': { action: 'accept', content: {} } }),
  'extra param': (d) => (params(d)['cursor'] = 'c'),
  'arguments other': (d, r) => (params(d)['arguments'] = r.pick([[], 'text', null, 5, { __proto: 1 }])),
  'no arguments': (d) => delete params(d)['arguments'],
  'name other': (d, r) => {
    const name = r.pick([5, '', 'nope', 'a b', 'x'.repeat(200), 'echo\u0000', null]);
    params(d)['name'] = name;
    if (typeof name === 'string' && /^[\x20-\x7e]*$/.test(name)) d.headers['mcp-name'] = name;
  },
  'no name': (d) => delete params(d)['name'],
  'params other': (d, r) => (d.message['params'] = r.pick([null, [], 'x', 5])),
  'content type other': (d, r) => (d.headers['content-type'] = r.pick(['text/plain', 'application/json; charset=utf-8', 'application/json-seq', 'APPLICATION/JSON'])),
  'no content type': (d) => delete d.headers['content-type'],
  'accept other': (d, r) => (d.headers['accept'] = r.pick(['text/event-stream', '*/*', 'application/json', 'text/html'])),
  'no accept': (d) => delete d.headers['accept'],
  credential: (d, r) => (d.headers['x-corpus-key'] = r.pick(['sekrit-123', 'another key', ''])),
  'selected toolsets': (d, r) => (d.headers['x-mcp-toolsets'] = r.pick(['corpus', 'nope', 'corpus,nope', ''])),
  'read-only': (d) => (d.headers['x-mcp-readonly'] = 'true'),
  // A header line sent twice: a fetch `Headers` joins them for `get` but lists each `set-cookie` on its own.
  'repeated header': (d, r) => {
    const name = r.pick(['set-cookie', 'cookie', 'x-corpus-tag', 'x-corpus-key']);
    d.repeated = [
      [name, r.pick(['a=1', 'one', ''])],
      [name, r.pick(['b=2', 'two', 'a=1'])],
    ];
  },
  // Another value than the argument's, an encoded one, a malformed one, or none (for `route`, whose client mirrors it).
  'Mcp-Param header': (d, r) => {
    const value = r.pick([undefined, 'eu', 'us', 'EU', '', ' eu', '=?base64?ZXU=?=', '=?base64?!!?=']);
    if (value === undefined) delete d.headers['mcp-param-region'];
    else d.headers['mcp-param-region'] = value;
  },
};

/** A request that is no 2026-07-28 `tools/call`: another method, another era, a notification, a batch, or no JSON-RPC at all. */
function otherRequest(random: Random, tools: readonly string[], makers: ArgumentMakers): Draft {
  const modernHeaders = (method: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method });
  const legacyHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(random.chance(0.5) && { 'mcp-protocol-version': random.pick(['2025-06-18', '2025-11-25', '2025-03-26']) }) };
  const name = random.pick(tools);
  const kind = random.pick(['legacy call', 'legacy initialize', 'legacy list', 'legacy ping', 'modern list', 'modern ping', 'modern discover', 'modern notification', 'batch', 'not json', 'not an object', 'empty']);
  const id = random.int(1, 1000);
  const draft = (message: Record<string, unknown>, headers: Record<string, string>, raw?: string): Draft => ({ label: [kind], headers, message, ...(raw !== undefined && { raw }) });
  switch (kind) {
    case 'legacy call':
      return draft({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: makers[name]!(random) } }, legacyHeaders);
    case 'legacy initialize':
      return draft({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO } }, legacyHeaders);
    case 'legacy list':
      return draft({ jsonrpc: '2.0', id, method: 'tools/list' }, legacyHeaders);
    case 'legacy ping':
      return draft({ jsonrpc: '2.0', id, method: 'ping' }, legacyHeaders);
    case 'modern list':
      return draft({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: envelope() } }, modernHeaders('tools/list'));
    case 'modern ping':
      return draft({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: envelope() } }, modernHeaders('ping'));
    case 'modern discover':
      return draft({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: envelope() } }, modernHeaders('server/discover'));
    case 'modern notification':
      return draft({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, _meta: envelope() } }, modernHeaders('notifications/cancelled'));
    case 'batch':
      return draft({}, modernHeaders('tools/call'), JSON.stringify([modernCall(id, name, makers[name]!(random)).message, modernCall(id + 1, name, {}).message]));
    case 'not json':
      return draft({}, modernHeaders('tools/call'), random.pick(['{', '{"jsonrpc":"2.0",', 'nul', '{"a":1}}', '\u00ff']));
    case 'not an object':
      return draft({}, modernHeaders('tools/call'), random.pick(['null', '5', '"tools/call"', 'true']));
    default:
      return draft({}, modernHeaders('tools/call'), '');
  }
}

/**
 * `count` requests to an endpoint serving `makers`' tools, from `seed`: 85% calls (70% of them
 * 2026-07-28, 30% 2025-era; valid and invalid arguments alike, as a model sends them), two in five
 * of them with one to three mutations from everything a client can get wrong, and the rest other
 * methods, notifications, batches and bodies that are no JSON-RPC at all.
 */
/** The name of every mutation the corpus applies, as its requests' labels carry them. */
export const MUTATION_NAMES: readonly string[] = Object.keys(MUTATIONS);

export function callCorpus(seed: number, count: number, makers: ArgumentMakers, mirror?: HeaderMirror): CorpusRequest[] {
  const random = new Random(seed);
  const tools = Object.keys(makers);
  const mutations = Object.entries(MUTATIONS);
  const corpus: CorpusRequest[] = [];
  for (let n = 0; n < count; n++) {
    let draft: Draft;
    if (random.chance(0.15)) {
      draft = otherRequest(random, tools, makers);
    } else {
      const name = random.pick(tools);
      const id = random.chance(0.5) ? n : `call-${n}`;
      draft = random.chance(0.3) ? legacyCall(id, name, makers[name]!(random), random) : modernCall(id, name, makers[name]!(random), mirror);
      if (random.chance(0.4)) {
        for (let applied = random.int(1, 3); applied > 0; applied--) {
          const [label, mutate] = random.pick(mutations);
          // A later mutation may reach into what an earlier one removed: it applies only where it still can.
          try {
            mutate(draft, random, tools);
            draft.label.push(label);
          } catch {
            // Nothing left to mutate there.
          }
        }
      }
    }
    corpus.push({ label: `#${n} ${draft.label.join(', ')}`, headers: draft.headers, repeated: draft.repeated ?? [], body: draft.raw ?? JSON.stringify(draft.message), clean: draft.label.length === 1 && /^(2025 )?call /.test(draft.label[0]!) });
  }
  return corpus;
}
