export interface ContractExecutorSchema {
  entry?: string;
}
