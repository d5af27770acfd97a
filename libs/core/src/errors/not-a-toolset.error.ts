import { ContractViolation } from './contract-violation';

export class NotAToolsetError extends ContractViolation {
  constructor(className: string) {
    super(
      {},
      `'${className}' was passed in \`toolsets\` but is not decorated with @Toolset.`,
      `decorate the class: \`@Toolset({ description: '...' }) export class ${className} { ... }\`.`,
    );
  }
}
