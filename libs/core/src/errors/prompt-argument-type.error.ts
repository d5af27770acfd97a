import { ContractViolation, type ViolationSite } from './contract-violation';

export class PromptArgumentTypeError extends ContractViolation {
  constructor(site: ViolationSite, className: string, property: string, type: string, decorator: '@Prompt' | '@ResourceTemplate') {
    super(
      { ...site, path: `${className}.${property}` },
      `'${property}' of '${className}' is ${type}; ${decorator === '@Prompt' ? 'prompt arguments' : 'URI template variables'} are strings on the wire.`,
      `declare '${property}' as a string (an enum of strings, \`@IsIn([...])\` or \`@Matches(...)\` narrows it), and convert it in the method.`,
    );
  }
}
