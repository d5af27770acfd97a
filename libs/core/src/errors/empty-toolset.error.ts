import { ContractViolation } from './contract-violation';

export class EmptyToolsetError extends ContractViolation {
  constructor(toolset: string, className: string) {
    super(
      { toolset },
      `The toolset class '${className}' has no @Tool methods.`,
      "decorate at least one method with `@Tool({ description: '...', returns: XResult })`.",
    );
  }
}
