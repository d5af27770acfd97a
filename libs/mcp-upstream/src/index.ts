export { McpUpstream, upstreamResourceWatcher, type UpstreamCompleting, type UpstreamResult, type UpstreamToolCall } from './mcp-upstream';
export { closeUpstreams, UpstreamClosed, UpstreamConnection } from './upstream-connection';
export { DEFAULT_MAX_RESULT_BYTES, DEFAULT_TIMEOUT_MS, settingsFromEnvironment, variablePrefix, type ResolvedUpstreamSettings, type UpstreamSettings, type UpstreamTransportSettings } from './upstream-settings';
export type { PriorDiscovery } from '@modelcontextprotocol/client';
