import { ContractViolation } from './contract-violation';

/** Where a tool is defined: its toolset, class and method. */
export interface ToolOrigin {
  toolset: string;
  className: string;
  methodName: string;
  /** What a generated toolset was generated from (`mcp.json and mcp.config.json`): its names are changed in that config. */
  generatedFrom?: string;
}

export class DuplicateToolNameError extends ContractViolation {
  constructor(name: string, first: ToolOrigin, second: ToolOrigin) {
    super(
      { toolset: second.toolset, tool: name },
      `The tool name '${name}' is used by ${first.className}.${first.methodName}() (toolset '${first.toolset}') and by ${second.className}.${second.methodName}() (toolset '${second.toolset}'); names must be unique in one server.`,
      renameFix(first, second),
    );
  }
}

/** How to tell the two apart: a hand-written tool by its `@Tool({ name })`, a generated one in the config it is generated from. */
function renameFix(first: ToolOrigin, second: ToolOrigin): string {
  const generated = [second, first].find((origin) => origin.generatedFrom !== undefined);
  const config = generated && /\S+\.config\.json/.exec(generated.generatedFrom!)?.[0];
  if (!generated || !config) return "give one of them a distinct `name:` in @Tool (for example prefixed with the toolset's name).";
  return `rename one of them: the generated toolset '${generated.toolset}' takes a "prefix" for all its tools, or a "name" for this one under "tools", in its ${config}, then run npx nx sync${generated === first && second.generatedFrom === undefined ? `; or give ${second.className}.${second.methodName}() a distinct \`name:\` in @Tool` : ''}.`;
}
