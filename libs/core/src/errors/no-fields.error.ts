import { ContractViolation, type ViolationSite } from './contract-violation';

export class NoFieldsError extends ContractViolation {
  constructor(site: ViolationSite, className: string, role: 'nested' | 'args') {
    const what = role === 'args' ? 'The argument class' : 'The nested class';
    super(
      site,
      `${what} '${className}' declares no @Field properties, so its schema would be empty.`,
      role === 'args'
        ? `decorate each argument of '${className}' with @Field(), or drop \`args\` from the @Tool if it takes none.`
        : `decorate each property of '${className}' that should be sent with @Field().`,
    );
  }
}
