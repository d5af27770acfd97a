import type { InnerCallAnswer, SandboxHost, SandboxOutcome } from '../../src';

// The built library: the sandbox runs programs on its built worker script.
const { QuickJsSandbox } = require('../../dist') as typeof import('../../src');

/** What reached the host: every inner call, with its arguments exactly as the program sent them. */
const received: { namespace: string; tool: string; args: unknown }[] = [];
const host: SandboxHost = {
  namespaces: { notes: ['list_notes', 'slow'], vault: ['whoami'] },
  call: async (namespace, tool, args, signal): Promise<InnerCallAnswer> => {
    received.push({ namespace, tool, args });
    if (tool === 'slow') await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    return { value: { tool, notes: [{ id: 1, text: 'a note' }] } };
  },
};
const sandbox = new QuickJsSandbox({ limits: { cpuMs: 200, wallMs: 3_000, memoryBytes: 8 * 1024 * 1024, maxCalls: 20, logBytes: 1_024, resultBytes: 4_096, programBytes: 4_096 } });
afterAll(() => sandbox.close());
// A roomy wall clock unless a case is about it: a program queued for a worker counts its wait against wallMs, and 12 at once beside two busy cores once waited past 3 s.
const run = (program: string, limits = {}) => sandbox.run(program, host, { wallMs: ROOMY.wallMs, ...limits });
const limit = (name: string, setting: string) => ({ ok: false, failure: { kind: 'limit', limit: name, setting, message: expect.stringContaining(`raise it with ${setting}`) } });
const value = (expected: unknown) => ({ ok: true, value: expected });
/** Time enough that the limit a case is about comes first on a loaded machine (the CPU clock counts the guest's wall time while it computes). */
const ROOMY = { cpuMs: 10_000, wallMs: 20_000 };

beforeEach(() => (received.length = 0));
jest.setTimeout(30_000);

describe('hostile programs: each ends with exactly this outcome, and the host is unaffected', () => {
  const cases: [string, string, Record<string, unknown>, Partial<SandboxOutcome> | Record<string, unknown>][] = [
    ['an infinite loop', 'while (true) {}', {}, limit('cpuMs', 'CODE_MODE_CPU_MS')],
    ['an infinite loop after an await', 'await api.notes.list_notes({}); for (;;) {}', {}, limit('cpuMs', 'CODE_MODE_CPU_MS')],
    ['an infinite loop inside a promise', 'await new Promise(() => { while (true) {} });', {}, limit('cpuMs', 'CODE_MODE_CPU_MS')],
    ['a loop of microtasks that never yields', 'const spin = () => { Promise.resolve().then(spin); }; spin(); await new Promise(() => {});', {}, limit('cpuMs', 'CODE_MODE_CPU_MS')],
    // Each promise resolves to the next, so the chain holds them all: its memory runs out (before, the job queue failed silently and it was answered as a deadlock).
    ['a chain of microtasks that holds every promise', 'const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});', ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    ['objects piled up without end', 'const all = []; for (let i = 0; ; i++) all.push({ i });', ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    // Near the memory limit each element of a native fill collects garbage, and the interpreter checks the clock only between operations: the worker is stopped by force.
    // QuickJS's own limit counts 8 bytes per allocation in this build: big arrays and strings passed it by hundreds of megabytes, until the CPU limit stopped the worker.
    ['big arrays filled without end', 'const all = []; for (;;) all.push(new Array(100000).fill(1));', ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    ['big strings kept without end', "const all = []; for (let i = 0; ; i++) all.push('y'.repeat(65536) + i);", ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    ['a map of small entries without end (was answered as a thrown null)', "const m = new Map(); for (let i = 0; ; i++) m.set('k' + i, [i, i, i]);", ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    ['a program that throws null itself is answered as its throw', 'throw null;', {}, { ok: false, failure: { kind: 'thrown', message: 'null' } }],
    ['a search inside one native operation, repeated', "const s = 'ab'.repeat(1000000); for (;;) s.lastIndexOf('abc');", {}, { ok: false, failure: { kind: 'limit', limit: 'cpuMs', message: expect.stringContaining('stopped by force') } }],
    ['a string doubled until it cannot be (a rope: no memory spent until the length cap)', "let s = 'x'; for (;;) s = s + s;", {}, { ok: false, failure: { kind: 'thrown', message: 'string too long' } }],
    ['a string doubled and flattened', "let s = 'x'; for (;;) { s = s + s; s.charCodeAt(s.length - 1); s = s.split('').join(''); }", ROOMY, limit('memoryBytes', 'CODE_MODE_MEMORY_BYTES')],
    ['unbounded recursion', 'const down = (n) => down(n + 1) + 1; return down(0);', ROOMY, limit('stackBytes', 'CODE_MODE_STACK_BYTES')],
    // On a 64 KiB stack: on the default 256 KiB, 100,000 levels took 2 s to reach the limit, 20 s beside two busy cores (over ROOMY's CPU clock).
    ['recursion through JSON.stringify of a deep object', "let o = {}; for (let i = 0; i < 20000; i++) o = { o }; return JSON.stringify(o).length;", { ...ROOMY, stackBytes: 64 * 1024 }, limit('stackBytes', 'CODE_MODE_STACK_BYTES')],
    ['a result over the byte limit', "return 'x'.repeat(100000);", {}, limit('resultBytes', 'CODE_MODE_RESULT_BYTES')],
    ['a program over the size limit', `return 1; // ${'x'.repeat(5_000)}`, {}, limit('programBytes', 'CODE_MODE_PROGRAM_BYTES')],
    ['thousands of inner calls', 'for (let i = 0; i < 5000; i++) await api.notes.list_notes({});', ROOMY, limit('maxCalls', 'CODE_MODE_MAX_CALLS')],
    ['thousands of inner calls at once', 'await Promise.all(Array.from({ length: 5000 }, () => api.notes.list_notes({})));', ROOMY, limit('maxCalls', 'CODE_MODE_MAX_CALLS')],
    ['thousands of inner calls at once, the refusal caught', 'try { await Promise.all(Array.from({ length: 5000 }, () => api.notes.list_notes({}))); } catch {} return 1;', ROOMY, limit('maxCalls', 'CODE_MODE_MAX_CALLS')],
    ['a call that outlives the wall clock', 'return await api.notes.slow({});', { wallMs: 300 }, limit('wallMs', 'CODE_MODE_WALL_MS')],
    // It threw nothing: it is told it was stopped, and why.
    ['a promise nothing settles', 'await new Promise(() => {}); return 1;', {}, { ok: false, failure: { kind: 'stopped', message: expect.stringContaining('it waits for a promise that nothing can settle') } }],
    ['reaching process', 'return typeof process;', {}, value('undefined')],
    ['reaching require and module', 'return [typeof require, typeof module, typeof exports];', {}, value(['undefined', 'undefined', 'undefined'])],
    ['fetch and the network', 'return [typeof fetch, typeof XMLHttpRequest, typeof WebSocket];', {}, value(['undefined', 'undefined', 'undefined'])],
    ['timers', 'return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask];', {}, value(['undefined', 'undefined', 'undefined', 'undefined'])],
    ['a high-resolution clock', 'return [typeof performance, typeof process];', {}, value(['undefined', 'undefined'])],
    ['SharedArrayBuffer, Atomics and WebAssembly', 'return [typeof SharedArrayBuffer, typeof Atomics, typeof WebAssembly];', {}, value(['undefined', 'undefined', 'undefined'])],
    ['a dynamic import', "return await import('fs');", {}, { ok: false, failure: { kind: 'thrown' } }],
    ['the host functions the prelude removed', 'return [typeof __toolsetsCall, typeof __toolsetsLog, Object.keys(globalThis).filter((k) => k.startsWith("__"))];', {}, value(['undefined', 'undefined', []])],
    ['the Function constructor, to escape the scope', "return new Function('return typeof process + typeof require')();", {}, value('undefinedundefined')],
    ['eval, to escape the scope', "return eval('typeof globalThis.process');", {}, value('undefined')],
    ['the constructor chain from a tool result', "const r = await api.notes.list_notes({}); return r.constructor.constructor('return typeof process')();", {}, value('undefined')],
    ['replacing api with its own', "api.notes = { list_notes: () => 'forged' }; api.notes.list_notes = () => 'forged'; return await api.notes.list_notes({});", {}, { ok: false, failure: { kind: 'thrown', name: 'TypeError' } }],
    ['polluting Object.prototype: it fools only its own JSON', "Object.prototype.scopes = ['admin']; Object.prototype.toJSON = () => 'hijacked'; return await api.vault.whoami({ note: 1 });", {}, value('hijacked')],
    ['logs past the byte limit', "for (let i = 0; i < 1000; i++) console.log('line ' + i + ' ' + 'x'.repeat(50)); return 'done';", ROOMY, { ok: true, value: 'done', logsTruncated: true }],
    ['a thrown non-error value', "throw { secret: 'not an Error' };", {}, { ok: false, failure: { kind: 'thrown', name: 'Error' } }],
    ['a value JSON cannot hold', 'return 10n;', {}, { ok: false, failure: { kind: 'thrown', name: 'TypeError' } }],
    ['a cyclic result', 'const a = {}; a.self = a; return a;', {}, { ok: false, failure: { kind: 'thrown', name: 'TypeError' } }],
    ['a getter that loops when the prelude reads the arguments', "return await api.notes.list_notes({ get x() { for (;;) {} } });", {}, limit('cpuMs', 'CODE_MODE_CPU_MS')],
  ];

  it.each(cases)('%s', async (_name, program, limits, expected) => {
    const outcome = await run(program, limits);
    expect(outcome).toMatchObject(expected);
    // After every hostile program, a plain one runs as before: the module and the host are intact.
    // Roomy limits: a replaced worker starts within its wall clock, which a busy machine once exceeded at 3 s.
    expect(await run('return 6 * 7;', ROOMY)).toMatchObject(value(42));
  });

  it("sends the program's arguments and reads the tool's answer with the JSON the prelude captured, whatever the program puts in its place", async () => {
    const outcome = await run(
      "const own = JSON.stringify; JSON.stringify = () => '{\"forged\":true}'; JSON.parse = () => ({ tool: 'forged' }); const answer = await api.notes.list_notes({ page: 2 }); JSON.stringify = own; return answer.tool;",
    );
    expect(received).toEqual([{ namespace: 'notes', tool: 'list_notes', args: { page: 2 } }]);
    expect(outcome).toMatchObject({ ok: true, value: 'list_notes' });
  });

  it('hands the host only what JSON.parse makes of the arguments: a polluted prototype in the guest reaches it as plain data', async () => {
    await run("Object.prototype.toJSON = () => 'hijacked'; await api.vault.whoami({ as: 'admin', token: 'forged' });");
    expect(received).toEqual([{ namespace: 'vault', tool: 'whoami', args: 'hijacked' }]);
    await run("Object.prototype.__proto__polluted = 1; await api.vault.whoami(JSON.parse('{\"__proto__\": {\"isAdmin\": true}}'));");
    const args = received[1]!.args as Record<string, unknown>;
    // "__proto__" arrives as an own key holding data, never as the object's prototype: nothing inherits isAdmin.
    expect([Object.keys(args), args['isAdmin'], Object.getPrototypeOf(Object.getPrototypeOf(args)), ({} as Record<string, unknown>)['isAdmin']]).toEqual([['__proto__'], undefined, null, undefined]);
  });

  it('keeps programs of many callers apart when they run at once', async () => {
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => run(`globalThis.mine = ${i}; await api.notes.list_notes({ caller: ${i} }); return globalThis.mine;`, ROOMY)));
    expect(outcomes.map((outcome) => (outcome.ok ? outcome.value : outcome.failure))).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('caps inner calls waiting at once, queueing the rest', async () => {
    let running = 0;
    let most = 0;
    const counting: SandboxHost = {
      namespaces: host.namespaces,
      call: async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return { value: 1 };
      },
    };
    const outcome = await sandbox.run('return (await Promise.all(Array.from({ length: 16 }, () => api.notes.list_notes({})))).length;', counting, { ...ROOMY, maxConcurrentCalls: 3 });
    expect([outcome.ok && outcome.value, most]).toEqual([16, 3]);
  });
});
