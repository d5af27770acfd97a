import { ContractViolation, type ViolationSite } from './contract-violation';

export class InvalidArgsError extends ContractViolation {
  constructor(site: ViolationSite, got: string) {
    super(
      site,
      `\`args\` must be a class with @Field properties, got ${got}.`,
      'declare an argument DTO (`class SearchArgs { @Field() query!: string }`) and pass the class: `args: SearchArgs`.',
    );
  }
}
