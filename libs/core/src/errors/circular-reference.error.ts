import { ContractViolation, type ViolationSite } from './contract-violation';

/**
 * @deprecated Recursive DTO classes are accepted: a class on a cycle is advertised under `$defs`
 * and validated through its `$ref`. Nothing throws this any more; it stays exported for code that
 * names it.
 */
export class CircularReferenceError extends ContractViolation {
  constructor(site: ViolationSite, cycle: readonly string[]) {
    super(
      site,
      `The DTO classes refer to each other in a cycle (${cycle.join(' -> ')}); schemas are sent fully inlined, so a cycle cannot be expressed.`,
      `break the cycle: refer back by id (e.g. \`parentId: string\`) instead of embedding the class.`,
    );
  }
}
