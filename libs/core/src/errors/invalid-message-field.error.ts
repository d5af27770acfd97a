import { ContractViolation, type ViolationSite } from './contract-violation';

export type MessageFieldProblem = 'missing' | 'optional' | 'not-string';

const PROBLEMS: Record<MessageFieldProblem, string> = {
  missing: 'has no `message` field',
  optional: 'declares `message` optional',
  'not-string': 'declares `message` with a type other than string',
};

export class InvalidMessageFieldError extends ContractViolation {
  constructor(site: ViolationSite, resultClass: string, problem: MessageFieldProblem) {
    super(
      site,
      `'message' of '${resultClass}': the result ${PROBLEMS[problem]}; every result needs a required \`message: string\` a model reads first.`,
      `remove the redeclaration of 'message' from '${resultClass}' (ToolResult already declares it), or declare it as \`@Field() message!: string\` without @IsOptional().`,
    );
  }
}
