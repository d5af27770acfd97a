import { ContractViolation, type ViolationSite } from './contract-violation';

/** An `x-mcp-header` annotation (`@Field({ header })`) that makes the tool invalid: 2026-07-28 clients drop such a tool. */
export class InvalidParamHeaderError extends ContractViolation {
  constructor(site: ViolationSite, problem: string) {
    super(site, `Its input schema cannot be served: ${problem}.`, "put `@Field({ header: 'Name' })` only on a top-level (or nested-object) string, integer or boolean argument that is not nullable, with a name of letters, digits and - (unique in the tool).");
  }
}
