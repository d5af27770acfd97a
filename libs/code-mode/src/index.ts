export { Sandbox, type SandboxOptions } from './sandbox/sandbox';
export { DEFAULT_LIMITS, LIMIT_SETTINGS, type SandboxLimits } from './sandbox/sandbox-limits';
export type { InnerCallAnswer, SandboxFailure, SandboxHost, SandboxOutcome } from './sandbox/sandbox-outcome';
export { catalogDeclarations, identifier, type CatalogDeclarations, type DeclaredTool } from './declarations/catalog-declarations';
export type { JsonSchema } from './declarations/schema-type';
export { ProgramChecker, type CheckedProgram, type TypeProblem } from './typecheck/program-checker';
export { CodeMode, type Execution, type InnerCallDispatch } from './mode/code-mode';
