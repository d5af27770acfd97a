import { ContractViolation } from './contract-violation';

/** A group a toolset belongs to (`@Toolset({ groups })`, `defineGroup`) that cannot be served: a bad name, no description, not a group. */
export class InvalidGroupError extends ContractViolation {
  constructor(toolset: string, problem: string, fix: string) {
    super({ toolset }, problem, fix);
  }
}
