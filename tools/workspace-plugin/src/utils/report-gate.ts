import type * as Core from '@toolsets/core';

/**
 * Runs a contract check and prints its report: the report on success, the violations (and
 * `success: false`) on a ContractError; anything else is a bug and is thrown.
 */
export function reportGate(core: typeof Core, check: () => string): { success: boolean } {
  try {
    console.log(check());
    return { success: true };
  } catch (error) {
    if (error instanceof core.ContractError) {
      console.error(error.message);
      return { success: false };
    }
    throw error;
  }
}
