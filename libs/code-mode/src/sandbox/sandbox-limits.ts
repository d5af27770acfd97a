/** What one program may spend; each has a default and a setting, named in the error that ends a program past it. */
export interface SandboxLimits {
  /** Time the program itself computes (not the time it waits for inner calls). */
  cpuMs: number;
  /** Time from start to result, waiting included. */
  wallMs: number;
  /** What a program's heap may add to the interpreter's own 16 MiB of WebAssembly memory (the cap on that memory, see InterpreterModule). */
  memoryBytes: number;
  /**
   * The interpreter's stack: deep recursion ends here, not in the host. The interpreter's frames
   * also take the host's own native stack (WebAssembly runs on it), so this must stay well under
   * Node's (about 1 MB): at 512 KB a recursion in a test runner overflowed the host first.
   */
  stackBytes: number;
  /** Inner calls (`api.<toolset>.<tool>(…)`) one program may make. */
  maxCalls: number;
  /** Inner calls waiting at once (`Promise.all` over many). */
  maxConcurrentCalls: number;
  /** `console.log` output kept, in bytes; the rest is dropped and the logs say so. */
  logBytes: number;
  /** The program's return value, as JSON. */
  resultBytes: number;
  /** The program's source. */
  programBytes: number;
  /**
   * Time to type-check the program before it runs (on its worker, never the server's thread). It
   * counts against `wallMs` too; the run's `cpuMs` starts after it.
   */
  checkMs: number;
  /** The worker's JavaScript heap, where the type check runs: a program whose types explode ends here. */
  checkMemoryBytes: number;
}

/** Each limit's setting: the environment variable and the option that change it. */
export const LIMIT_SETTINGS: Readonly<Record<keyof SandboxLimits, string>> = {
  cpuMs: 'CODE_MODE_CPU_MS',
  wallMs: 'CODE_MODE_WALL_MS',
  memoryBytes: 'CODE_MODE_MEMORY_BYTES',
  stackBytes: 'CODE_MODE_STACK_BYTES',
  maxCalls: 'CODE_MODE_MAX_CALLS',
  maxConcurrentCalls: 'CODE_MODE_MAX_CONCURRENT_CALLS',
  logBytes: 'CODE_MODE_LOG_BYTES',
  resultBytes: 'CODE_MODE_RESULT_BYTES',
  programBytes: 'CODE_MODE_PROGRAM_BYTES',
  checkMs: 'CODE_MODE_CHECK_MS',
  checkMemoryBytes: 'CODE_MODE_CHECK_MEMORY_BYTES',
};

export const DEFAULT_LIMITS: Readonly<SandboxLimits> = {
  cpuMs: 1_000,
  wallMs: 30_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 50,
  maxConcurrentCalls: 8,
  logBytes: 16 * 1024,
  resultBytes: 64 * 1024,
  programBytes: 32 * 1024,
  checkMs: 5_000,
  checkMemoryBytes: 512 * 1024 * 1024,
};
