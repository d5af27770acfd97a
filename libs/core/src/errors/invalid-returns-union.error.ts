import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidReturnsUnionError extends ContractViolation {
  constructor(site: ViolationSite, declared: string) {
    super(
      site,
      `\`returns: [${declared}]\` is not a supported union; a tool returns one result class, optionally together with ToolError.`,
      'write `returns: [XResult, ToolError]` (exactly one class extending ToolResult, then ToolError), or `returns: XResult`.',
    );
  }
}
