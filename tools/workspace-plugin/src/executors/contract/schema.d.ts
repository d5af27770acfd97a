export interface ContractExecutorSchema {
  entry?: string;
  /** Accept the live catalog: rewrite contract.json (refused while the version does not cover the changes). */
  update?: boolean;
}
