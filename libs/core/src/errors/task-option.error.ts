import { ContractViolation, type ViolationSite } from './contract-violation';

/** `@Tool({ task })` that the gate cannot run as declared: what is wrong with it, and the fix. */
export class TaskOptionError extends ContractViolation {
  constructor(site: ViolationSite, problem: string, fix: string) {
    super(site, `The tool's task option ${problem}.`, fix);
  }
}
