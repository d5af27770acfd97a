export interface AppContractExecutorSchema {
  entry?: string;
}
