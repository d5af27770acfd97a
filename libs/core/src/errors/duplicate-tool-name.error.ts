import { ContractViolation } from './contract-violation';

export class DuplicateToolNameError extends ContractViolation {
  constructor(name: string, firstToolset: string, secondToolset: string) {
    super(
      { toolset: secondToolset, tool: name },
      `The tool name '${name}' is already used by toolset '${firstToolset}'; names must be unique in one server.`,
      "give one of them a distinct `name:` in @Tool (for example prefixed with the toolset's name).",
    );
  }
}
