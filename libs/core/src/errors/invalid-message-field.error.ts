import { ContractViolation, type ViolationSite } from './contract-violation';

export type MessageFieldProblem = 'missing' | 'optional' | 'not-string';

const PROBLEMS: Record<MessageFieldProblem, string> = {
  missing: 'has no `message` field',
  optional: 'declares `message` optional',
  'not-string': 'declares `message` with a type other than string',
};

function fixFor(resultClass: string, problem: MessageFieldProblem): string {
  switch (problem) {
    case 'missing':
      return `extend ToolResult (\`class ${resultClass} extends ToolResult\`), which declares \`message\`.`;
    case 'optional':
      return `remove @IsOptional() from 'message' in '${resultClass}', or drop the redeclaration (ToolResult already declares it).`;
    case 'not-string':
      return `declare 'message' in '${resultClass}' as \`@Field() message!: string\`, or drop the redeclaration (ToolResult already declares it).`;
  }
}

export class InvalidMessageFieldError extends ContractViolation {
  constructor(site: ViolationSite, resultClass: string, problem: MessageFieldProblem) {
    super(
      site,
      `'message' of '${resultClass}': the result ${PROBLEMS[problem]}; every result needs a required \`message: string\` a model reads first.`,
      fixFor(resultClass, problem),
    );
  }
}
