export { Sandbox, type SandboxOptions } from './sandbox/sandbox';
export { DEFAULT_LIMITS, LIMIT_SETTINGS, type SandboxLimits } from './sandbox/sandbox-limits';
export type { InnerCallAnswer, SandboxFailure, SandboxHost, SandboxOutcome } from './sandbox/sandbox-outcome';
