export interface OpenApiMeasureExecutorSchema {
  /** The base URL of a mock (or staging) API to call instead of the built-in sample upstream. */
  mock?: string;
}
