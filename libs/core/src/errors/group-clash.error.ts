import { ContractViolation } from './contract-violation';

/** A group whose name is already taken on the server: by a toolset, or by another group definition. */
export class GroupClashError extends ContractViolation {
  constructor(toolset: string, group: string, takenBy: string) {
    super(
      { toolset },
      `The group '${group}' has the name of ${takenBy}: a client selecting '${group}' (?toolsets=) could not tell which is meant.`,
      `give the group a name of its own, and declare each group once (export the defineGroup(...) value and import it wherever a toolset joins it).`,
    );
  }
}
