import { ContractViolation } from './contract-violation';

/** Where a tool is defined: its toolset, class and method. */
export interface ToolOrigin {
  toolset: string;
  className: string;
  methodName: string;
}

export class DuplicateToolNameError extends ContractViolation {
  constructor(name: string, first: ToolOrigin, second: ToolOrigin) {
    super(
      { toolset: second.toolset, tool: name },
      `The tool name '${name}' is used by ${first.className}.${first.methodName}() (toolset '${first.toolset}') and by ${second.className}.${second.methodName}() (toolset '${second.toolset}'); names must be unique in one server.`,
      "give one of them a distinct `name:` in @Tool (for example prefixed with the toolset's name).",
    );
  }
}
