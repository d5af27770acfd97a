/**
 * The JavaScript that runs in each fresh context before the program: it takes the two host
 * functions off the global object (so the program reaches the host only through `api` and
 * `console`), removes what a program has no use for and could misuse, and defines `api` (one frozen
 * namespace per toolset, one function per tool, JSON in and out) and `ToolCallError`. The
 * intrinsics `api` and `console` use are captured here, before the program runs: a program that
 * replaces `JSON.stringify` changes its own values, never what `api` sends.
 */
export function guestPrelude(namespaces: Readonly<Record<string, readonly string[]>>): string {
  return `(() => {
  const host = globalThis.__toolsetsCall;
  const log = globalThis.__toolsetsLog;
  const { stringify, parse } = JSON;
  const { freeze } = Object;
  const stringOf = String;
  delete globalThis.__toolsetsCall;
  delete globalThis.__toolsetsLog;
  for (const name of ['SharedArrayBuffer', 'Atomics', 'WebAssembly', 'FinalizationRegistry', 'WeakRef']) delete globalThis[name];
  class ToolCallError extends Error {
    constructor(name, message, data) {
      super(message);
      this.name = name;
      if (data !== undefined) this.data = data;
    }
  }
  const api = {};
  for (const [namespace, tools] of Object.entries(JSON.parse(${JSON.stringify(JSON.stringify(namespaces))}))) {
    const calls = {};
    for (const tool of tools) {
      calls[tool] = (args) => host(namespace, tool, stringify(args === undefined ? {} : args)).then((answer) => {
        const parsed = parse(answer);
        if (parsed.error) throw new ToolCallError(parsed.error.name, parsed.error.message, parsed.error.data);
        return parsed.value;
      });
    }
    api[namespace] = freeze(calls);
  }
  const show = (value) => {
    if (typeof value === 'string') return value;
    try { return stringify(value) ?? stringOf(value); } catch { return stringOf(value); }
  };
  const write = (...values) => log(values.map(show).join(' '));
  Object.defineProperty(globalThis, 'api', { value: freeze(api), enumerable: true });
  Object.defineProperty(globalThis, 'console', { value: freeze({ log: write, info: write, warn: write, error: write, debug: write }), enumerable: true });
  Object.defineProperty(globalThis, 'ToolCallError', { value: ToolCallError, enumerable: false });
})();`;
}

/**
 * The program as a strict async function whose value comes back as JSON (`null` for nothing).
 * Strict, as compiled TypeScript is: writing to the frozen `api` throws instead of doing nothing.
 */
export function wrappedProgram(program: string): string {
  return `(async () => { 'use strict';\n${program}\n})().then((value) => JSON.stringify(value === undefined ? null : value))`;
}
