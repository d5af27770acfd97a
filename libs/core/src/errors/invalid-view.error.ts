import { ContractViolation, type ViolationSite } from './contract-violation';

/** `@Tool({ view })` that is not a view `defineView` made, or a view declared in a way it cannot be served. */
export class InvalidViewError extends ContractViolation {
  constructor(site: ViolationSite, problem: string, fix: string) {
    super(site, `The tool's view ${problem}.`, fix);
  }
}
