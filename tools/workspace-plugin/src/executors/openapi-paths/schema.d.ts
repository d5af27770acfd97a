export interface OpenApiPathsExecutorSchema {
  /** Only these operations: comma-separated `tools` keys (operationIds) or tool names, `*` matching any characters. */
  tool?: string;
}
