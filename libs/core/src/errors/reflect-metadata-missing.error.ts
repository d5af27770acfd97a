import { ContractViolation, type ViolationSite } from './contract-violation';

export class ReflectMetadataMissingError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string) {
    super(
      site,
      `'${property}' of '${className}' was decorated before reflect-metadata was loaded, so its type could not be read.`,
      "add `import 'reflect-metadata';` as the first line of your entry point (before any toolset is imported).",
    );
  }
}
