import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidInputSchemaError extends ContractViolation {
  constructor(site: ViolationSite, reason: string) {
    super(
      site,
      `The tool's raw inputSchema ${reason}.`,
      'give @Tool an `inputSchema` that is a JSON Schema object with `type: "object"` whose `$ref`s point inside it (`#/$defs/...`), or declare the arguments as an `args` DTO class instead.',
    );
  }
}
