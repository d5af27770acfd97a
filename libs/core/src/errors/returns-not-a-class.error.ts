import { ContractViolation, type ViolationSite } from './contract-violation';

export class ReturnsNotAClassError extends ContractViolation {
  constructor(site: ViolationSite, got: string) {
    super(
      site,
      `\`returns\` must be a result class, got ${got}.`,
      'declare a class extending ToolResult and pass the class itself: `returns: SearchResult`, or `returns: [SearchResult, ToolError]` when the tool can fail in a structured way.',
    );
  }
}
