import { ContractViolation, type ViolationSite } from './contract-violation';

/**
 * An app's `curate(Toolset, …)` that does not fit the toolset it curates: a name that is no tool or
 * argument of it, a constant or default its argument's schema refuses, a bound that widens it.
 */
export class InvalidCurationError extends ContractViolation {
  constructor(site: ViolationSite, where: string, problem: string, fix: string) {
    super(site, `curate(${where}): ${problem}`, fix);
  }
}
