/** Attribute names of the OpenTelemetry MCP and GenAI semantic conventions (status: development). */
export const MCP_METHOD_NAME = 'mcp.method.name';
export const MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const MCP_SESSION_ID = 'mcp.session.id';
export const MCP_RESOURCE_URI = 'mcp.resource.uri';
export const JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const NETWORK_TRANSPORT = 'network.transport';
export const NETWORK_PROTOCOL_NAME = 'network.protocol.name';
export const ERROR_TYPE = 'error.type';
export const RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
/** Ours, not the conventions': on the span of a call a code-mode program made (true). */
export const TOOLSETS_CODE_MODE = 'toolsets.code_mode.inner_call';

/** The histogram of every MCP request's duration on the server, in seconds. */
export const MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration';
/** The conventions' advised buckets for it, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
