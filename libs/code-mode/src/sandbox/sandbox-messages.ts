import type { SandboxLimits } from './sandbox-limits';
import type { InnerCallAnswer, SandboxOutcome } from './sandbox-outcome';

/** From the server to a sandbox worker. */
export type ToWorker =
  | { type: 'run'; runId: number; program: string; namespaces: Record<string, readonly string[]>; limits: SandboxLimits }
  | { type: 'answer'; callId: number; answer: InnerCallAnswer };

/** From a sandbox worker to the server. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; runId: number; callId: number; namespace: string; tool: string; args: unknown }
  | { type: 'outcome'; runId: number; outcome: SandboxOutcome };
