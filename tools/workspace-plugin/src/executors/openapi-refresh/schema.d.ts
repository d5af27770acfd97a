export interface OpenApiRefreshExecutorSchema {
  /** Report the upstream's changes without writing anything; fails when the document changed. */
  check?: boolean;
  /** The whole fetch, redirects and body included, in milliseconds (default 30000). */
  timeoutMs?: number;
  /** The most bytes of document read (default 52428800, 50 MiB). */
  maxBytes?: number;
}
