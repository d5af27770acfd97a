import { ContractViolation, type ViolationSite } from './contract-violation';

export class ValidationWithoutFieldError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, validators: readonly string[]) {
    super(
      site,
      `'${property}' of '${className}' has validation decorators (${validators.map((v) => `@${v}`).join(', ')}) but no @Field(), so it would vanish from the schema and from every result.`,
      `add @Field() to '${property}' (with a type thunk where needed), or remove the decorators.`,
    );
  }
}
