import { ContractViolation } from './contract-violation';

/** Groups that contain themselves, directly or through others: groups are nested sets, never a cycle. */
export class GroupCycleError extends ContractViolation {
  constructor(toolset: string, cycle: readonly string[]) {
    super(
      { toolset },
      cycle.length === 2 ? `The group '${cycle[0]}' belongs to itself.` : `The groups form a cycle: ${cycle.map((name) => `'${name}'`).join(' → ')}.`,
      `remove '${cycle.at(-1)}' from the groups of '${cycle.at(-2)}': a group may belong to larger groups, never to one it contains.`,
    );
  }
}
