import { ContractViolation } from './contract-violation';

/** Two prompts with one name, or two resources (or templates) with one URI, in one server. */
export class DuplicateMemberError extends ContractViolation {
  constructor(kind: 'prompt' | 'resource', key: string, first: string, second: string) {
    super(
      kind === 'prompt' ? { prompt: key } : { resource: key },
      `The ${kind === 'prompt' ? 'prompt name' : 'resource URI'} '${key}' is declared by ${first} and by ${second}; it must be unique in one server.`,
      kind === 'prompt' ? 'give one of them a distinct `name:` in @Prompt.' : 'give one of them a distinct URI.',
    );
  }
}
