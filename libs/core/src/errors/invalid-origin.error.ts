import { describeEntry } from '../helpers/describe-value';
import { ContractViolation, type ViolationSite } from './contract-violation';

/** The longest `@Tool({ origin })`: an identity (an operation, a method), not prose. */
export const MAX_ORIGIN_CHARS = 512;

export class InvalidOriginError extends ContractViolation {
  constructor(site: ViolationSite, origin: unknown) {
    super(
      site,
      `The tool's origin is ${describeEntry(origin)}, not a string of 1–${MAX_ORIGIN_CHARS} characters; the contract pairs a renamed tool with its old name through it.`,
      `set \`origin:\` in @Tool to what the tool stands for whatever it is called, like 'GET /pets/{id}', or leave it out (it is then '<Toolset class>.<method>').`,
    );
  }

  static isValid(origin: unknown): origin is string {
    return typeof origin === 'string' && origin.trim() !== '' && origin.length <= MAX_ORIGIN_CHARS;
  }
}
