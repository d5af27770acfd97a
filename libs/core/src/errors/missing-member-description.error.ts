import { ContractViolation, type ViolationSite } from './contract-violation';

export class MissingMemberDescriptionError extends ContractViolation {
  constructor(site: ViolationSite, decorator: '@Prompt' | '@Resource' | '@ResourceTemplate') {
    super(site, `The ${decorator} has no description; clients list it, and models choose by it.`, `add \`description: '...'\` to ${decorator}, saying what it holds and when to use it.`);
  }
}
