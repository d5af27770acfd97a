import type { ContractViolation } from './contract-violation';

/** Thrown by `buildServer` when any tool breaks the contract; lists every violation, not just the first. */
export class ContractError extends Error {
  readonly violations: readonly ContractViolation[];

  constructor(serverName: string, violations: readonly ContractViolation[]) {
    const count = violations.length === 1 ? '1 contract violation' : `${violations.length} contract violations`;
    const list = violations.map((violation, index) => `  ${index + 1}. ${violation.message}`).join('\n');
    super(`Server '${serverName}' refused to start: ${count}.\n${list}`);
    this.name = 'ContractError';
    this.violations = violations;
  }
}
