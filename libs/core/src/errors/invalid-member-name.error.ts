import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidMemberNameError extends ContractViolation {
  constructor(site: ViolationSite, decorator: '@Prompt' | '@Resource' | '@ResourceTemplate', name: string) {
    super(site, `The name ${JSON.stringify(name)} is not 1 to 128 characters of A-Z a-z 0-9 _ - .`, `set \`name:\` in ${decorator} to a name like 'summarize_ticket', or rename the method.`);
  }
}
