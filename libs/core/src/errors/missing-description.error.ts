import { ContractViolation, type ViolationSite } from './contract-violation';

export class MissingDescriptionError extends ContractViolation {
  constructor(site: ViolationSite) {
    super(
      site,
      'The tool has no description; models choose tools by their descriptions.',
      "add `description: '...'` to @Tool, saying what the tool does and when to use it.",
    );
  }
}
