export interface McpRefreshExecutorSchema {
  check?: boolean;
  timeoutMs?: number;
}
