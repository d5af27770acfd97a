export interface ContractExecutorSchema {
  entry?: string;
  /** Accept the live catalog: rewrite contract.json (refused while the version does not cover the changes). */
  update?: boolean;
  /** Also print how each tool's arguments become its DTO instance (compiled, or class-transformer and why). */
  verbose?: boolean;
}
