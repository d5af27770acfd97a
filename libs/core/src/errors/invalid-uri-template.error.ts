import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidUriTemplateError extends ContractViolation {
  constructor(site: ViolationSite, template: unknown, reason: string, fix: string) {
    super(site, `The URI template ${JSON.stringify(template)} ${reason}.`, fix);
  }
}
