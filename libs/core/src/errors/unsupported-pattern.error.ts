import { ContractViolation, type ViolationSite } from './contract-violation';

export class UnsupportedPatternError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, flags: string) {
    super(
      site,
      `@Matches on '${property}' of '${className}' uses the regex flag(s) '${flags}', which a JSON Schema \`pattern\` cannot carry.`,
      'fold the flag into the pattern itself (e.g. `[Aa]` instead of the `i` flag) and drop the flag.',
    );
  }
}
