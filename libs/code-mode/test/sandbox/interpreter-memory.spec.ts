import { QuickJsRunner } from '../../src/sandbox/quickjs-runner';
import { INTERPRETER_BASE_BYTES } from '../../src/sandbox/quickjs-module';
import type { SandboxHost } from '../../src';

const host: SandboxHost = { namespaces: {}, call: async () => ({ value: {} }) };
const MiB = 1024 * 1024;
/** Time enough that memory, not the clock, ends the programs below on a loaded machine. */
const ROOMY = { cpuMs: 20_000, wallMs: 30_000 };

/**
 * The interpreter's WebAssembly memory, where a program's heap lives: capped at the interpreter's
 * own 16 MiB plus memoryBytes, and given back after a program that grew it, so a worker does not
 * keep the largest program's memory for the rest of its life.
 */
describe("a program's memory in the interpreter", () => {
  it('is capped at memoryBytes beyond the interpreter, whatever the program allocates (large arrays, strings, small objects)', async () => {
    const runner = new QuickJsRunner({ memoryBytes: 8 * MiB, ...ROOMY });
    for (const program of ["const all = []; for (;;) all.push(new Array(100000).fill(1.5));", "const all = []; for (let i = 0; ; i++) all.push('y'.repeat(65536) + i);", 'const all = []; for (let i = 0; ; i++) all.push({ i });']) {
      const outcome = await runner.run(program, host);
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'limit', limit: 'memoryBytes', setting: 'CODE_MODE_MEMORY_BYTES' } });
    }
  });

  it('lets a program use memoryBytes: 12 MiB of strings under a 16 MiB limit', async () => {
    const runner = new QuickJsRunner({ memoryBytes: 16 * MiB, ...ROOMY });
    const outcome = await runner.run("const all = []; for (let i = 0; i < 192; i++) all.push('y'.repeat(65536) + i); return all.reduce((n, s) => n + s.length, 0);", host);
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.ok && (outcome.value as number)).toBeGreaterThan(12 * MiB);
  });

  it('is given back after a program that grew it: the next program starts in a memory of the interpreter size again', async () => {
    const runner = new QuickJsRunner({ memoryBytes: 32 * MiB, ...ROOMY });
    await runner.warm();
    expect(await runner.heldBytes()).toBe(INTERPRETER_BASE_BYTES);
    // Grows the memory by 24 MiB and ends normally.
    const grown = await runner.run("const all = []; for (let i = 0; i < 384; i++) all.push('y'.repeat(65536) + i); return all.length;", host);
    expect(grown).toMatchObject({ ok: true, value: 384 });
    expect(await runner.heldBytes()).toBe(0);
    await runner.warm();
    expect(await runner.heldBytes()).toBe(INTERPRETER_BASE_BYTES);
    // A small program keeps its module: nothing to give back.
    expect(await runner.run('return 6 * 7;', host)).toMatchObject({ ok: true, value: 42 });
    expect(await runner.heldBytes()).toBe(INTERPRETER_BASE_BYTES);
  });
});
