export interface AppContractExecutorSchema {
  entry?: string;
  /** Record the tools served through curate() in contract.<server>.json (accepting their changes when the version allows). */
  update?: boolean;
}
