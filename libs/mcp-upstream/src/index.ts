export { McpUpstream, type UpstreamCompleting } from './mcp-upstream';
export type { UpstreamResult, UpstreamToolCall } from './upstream-tool-call';
export { upstreamResourceWatcher } from './upstream-resource-watcher';
export { closeUpstreams } from './live-connections';
export { UpstreamClosed, UpstreamConnection } from './upstream-connection';
export { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, settingsFromEnvironment, variablePrefix, type ResolvedUpstreamSettings, type UpstreamSettings, type UpstreamTransportSettings } from './upstream-settings';
export type { PriorDiscovery } from '@modelcontextprotocol/client';
