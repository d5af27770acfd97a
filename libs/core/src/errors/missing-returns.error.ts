import { ContractViolation, type ViolationSite } from './contract-violation';

export class MissingReturnsError extends ContractViolation {
  constructor(site: ViolationSite, method: string, toolsetClass: string) {
    super(
      site,
      `@Tool on '${method}' of '${toolsetClass}' declares no \`returns\`.`,
      'add `returns: XResult` (a class extending ToolResult) or `returns: [XResult, ToolError]`.',
    );
  }
}
