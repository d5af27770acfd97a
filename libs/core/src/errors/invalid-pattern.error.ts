import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidPatternError extends ContractViolation {
  constructor(site: ViolationSite, pattern: string, where: string, reason: string) {
    super(
      site,
      `The pattern ${JSON.stringify(pattern)} at ${where} of the tool's schema is not a regular expression validators can compile with the \`u\` flag: ${reason}.`,
      'write it so `new RegExp(pattern, "u")` accepts it (escape characters that need it, such as `\\-` outside a class), or drop the @Matches.',
    );
  }
}
