import type { SandboxLimits } from './sandbox-limits';
import type { InnerCallAnswer, SandboxOutcome } from './sandbox-outcome';

/** From the server to a sandbox worker. */
export type ToWorker =
  | { type: 'run'; runId: number; program: string; namespaces: Record<string, readonly string[]>; limits: SandboxLimits; check?: ProgramCheck }
  | { type: 'answer'; callId: number; answer: InnerCallAnswer }
  /** The caller went away: end this run now. */
  | { type: 'cancel'; runId: number };

/**
 * A TypeScript program to check against `declarations` before it runs; the worker keeps a checker
 * per `key` (the declarations' digest), so the text is parsed once per worker. `prelude` is
 * JavaScript put before the checked program's output (the catalog a search program reads).
 */
export interface ProgramCheck {
  key: string;
  declarations: string;
  prelude?: string;
}

/** From a sandbox worker to the server. */
export type FromWorker =
  | { type: 'ready' }
  /**
   * The worker has the declarations' checker ready and checks the program now: checkMs and wallMs
   * count from here. Readying a checker for declarations the worker has not seen (parsing and
   * checking them, once) is the server's cost, not the program's, and wallMs alone bounds it.
   */
  | { type: 'checking'; runId: number }
  /** The program passed its check (if it had one) and starts now: its CPU time counts from here. */
  | { type: 'running'; runId: number }
  | { type: 'call'; runId: number; callId: number; namespace: string; tool: string; argsJson: string }
  /** Values cross as JSON text and are parsed on the server's thread: objects cloned across threads would keep the other side's prototypes where the two differ (a test runner's realm). */
  | { type: 'outcome'; runId: number; outcome: SandboxOutcome; valueJson?: string };
