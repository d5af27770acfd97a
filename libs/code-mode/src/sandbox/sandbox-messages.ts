import type { SandboxLimits } from './sandbox-limits';
import type { InnerCallAnswer, SandboxOutcome } from './sandbox-outcome';

/** From the server to a sandbox worker. */
export type ToWorker =
  | { type: 'run'; runId: number; program: string; namespaces: Record<string, readonly string[]>; limits: SandboxLimits }
  | { type: 'answer'; callId: number; answer: InnerCallAnswer };

/** From a sandbox worker to the server. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; runId: number; callId: number; namespace: string; tool: string; argsJson: string }
  /** Values cross as JSON text and are parsed on the server's thread: objects cloned across threads would keep the other side's prototypes where the two differ (a test runner's realm). */
  | { type: 'outcome'; runId: number; outcome: SandboxOutcome; valueJson?: string };
