import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../gate/tool-catalog';
import { clip } from '../helpers/client-text';
import type { DroppedKeyWarner } from './dropped-key-warner';
import { memberScope, type CallSite, type ServingDefinition } from './member-scope';
import { runToolCall } from './tool-call';
import { InputRequiredSignal } from './client-input';

/** Built once per server definition: everything a `tools/call` needs that does not vary per call. */
export interface CallToolDefinition extends ServingDefinition {
  catalog: ToolCatalog;
  availableTools: string;
  warnDropped?: DroppedKeyWarner;
}

type CallRequest = { params: { name: string; arguments?: Record<string, unknown> } };

/** The `tools/call` handler of one SDK `Server` instance. */
export function callToolHandler(definition: CallToolDefinition, site: CallSite, server: Server) {
  return async (request: CallRequest, ctx: ServerContext): Promise<CallToolResult> => {
    const tool = definition.catalog.tools.get(request.params.name);
    if (!tool) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool '${clip(request.params.name)}'. ${definition.availableTools}`);
    }
    const { instantiate, logger } = memberScope(definition, site, server, ctx, tool.toolset, tool.name, tool.elicitationForms);
    let result: CallToolResult;
    try {
      result = await runToolCall(tool, request.params.arguments, { instantiate, logger, limits: site.limits, warnDropped: definition.warnDropped });
    } catch (signal) {
      if (signal instanceof InputRequiredSignal) return signal.toResult() as unknown as CallToolResult;
      throw signal;
    }
    return server.projectCallToolResult(result, tool.descriptor.outputSchema) as CallToolResult;
  };
}
