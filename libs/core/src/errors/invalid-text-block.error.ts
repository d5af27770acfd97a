import { ContractViolation, type ViolationSite } from './contract-violation';

/** `@Tool({ text })` names neither way a result's text block can be written. */
export class InvalidTextBlockError extends ContractViolation {
  constructor(site: ViolationSite, value: unknown) {
    super(site, `@Tool({ text }) is ${JSON.stringify(value) ?? String(value)}.`, "write `text: 'json'` (the result's JSON, the default) or `text: 'message'` (its message alone).");
  }
}
