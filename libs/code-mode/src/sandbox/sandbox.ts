import type { SandboxLimits } from './sandbox-limits';
import type { ProgramCheck } from './sandbox-messages';
import type { SandboxHost, SandboxOutcome } from './sandbox-outcome';

/** What one run brings besides its program, host and limits. */
export interface RunOptions {
  /** The program is TypeScript: check it first (the outcome then may be a `typecheck` failure). */
  check?: ProgramCheck;
  /**
   * The caller's request: once it aborts, a program still waiting to start is dropped, a running
   * one is stopped, and no inner call of its starts after that.
   */
  signal?: AbortSignal;
  /** Who runs it (`CodeModeRequest.caller`), for a sandbox that shares itself fairly between callers. */
  caller?: string;
}

/**
 * Where code mode runs a model's programs: given a program, the host side of its `api` and its
 * limits, it answers how the program ended, always as a value, never by throwing (a limit, a
 * throw of the program, a busy or closing sandbox are each a `SandboxFailure`). `QuickJsSandbox`
 * (QuickJS on worker threads) is the default; another (a container, a remote isolate service) is
 * given as `codeMode({ sandbox })`.
 */
export interface Sandbox {
  run(program: string, host: SandboxHost, limits?: Partial<SandboxLimits>, options?: RunOptions): Promise<SandboxOutcome>;
  /** Takes no more programs, lets the running ones end within `graceMs`, then stops them (`stopped`). */
  close(graceMs?: number): Promise<void>;
}
