import { ContractViolation, type ViolationSite } from './contract-violation';

export class ResultNotToolResultError extends ContractViolation {
  constructor(site: ViolationSite, resultClass: string) {
    super(
      site,
      `The result class '${resultClass}' does not extend ToolResult.`,
      `declare it as \`class ${resultClass} extends ToolResult\` so it carries the required \`message: string\`.`,
    );
  }
}
