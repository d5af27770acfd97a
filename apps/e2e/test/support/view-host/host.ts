// A minimal MCP Apps host, bundled for the browser by view-host.ts: the SDK's own Client over
// streamable HTTP to the server, and the MCP Apps SDK's AppBridge rendering a tool's view in a
// sandboxed iframe, forwarding the view's tools/call to the server and the tool's result to the view.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

export interface HostRequest {
  url: string;
  /** A bearer token for the server, if it checks them. */
  token?: string;
  tool: string;
  args: Record<string, unknown>;
  /** The protocol era: '2026-07-28' (pinned), or '2025-11-25' (the SDK's legacy mode, initialize first). */
  protocolVersion: string;
}

export interface HostReport {
  uri: string;
  mimeType?: string;
  toolMeta: Record<string, unknown> | undefined;
  csp: unknown;
  structuredContent: unknown;
  /** Every tools/call the view made through the host, and how each ended. */
  viewCalls: { name: string; outcome: string }[];
}

const viewCalls: HostReport['viewCalls'] = [];

async function hostView(request: HostRequest): Promise<HostReport> {
  const headers: Record<string, string> = request.token ? { authorization: `Bearer ${request.token}` } : {};
  // The 2025 era is the SDK's legacy mode (initialize); 2026-07-28 and later are pinned.
  const mode = request.protocolVersion.startsWith('2025-') ? 'legacy' : { pin: request.protocolVersion };
  const client = new Client({ name: 'e2e-apps-host', version: '1.0.0' }, { versionNegotiation: { mode } } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(request.url), { requestInit: { headers } }));
  const tool = (await client.listTools()).tools.find((candidate) => candidate.name === request.tool);
  if (!tool) throw new Error(`no tool ${request.tool}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${request.tool} has no view`);
  const [content] = (await client.readResource({ uri })).contents as { mimeType?: string; text?: string; _meta?: { ui?: { csp?: unknown } } }[];
  const result = await client.callTool({ name: request.tool, arguments: request.args });

  const bridge = new AppBridge(client, { name: 'e2e-apps-host', version: '1.0.0' }, { serverTools: {}, serverResources: {} });
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.id = 'view';
  document.body.append(frame);
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  // The bridge forwards the view's tools/call to the client (its own handler, set up by connect);
  // this one does the same and records each call, so the test sees the call went through the host.
  bridge.oncalltool = async (params) => {
    try {
      const answer = await client.callTool(params);
      viewCalls.push({ name: params.name, outcome: answer.isError ? 'isError' : 'ok' });
      return answer;
    } catch (error) {
      viewCalls.push({ name: params.name, outcome: `refused: ${(error as Error).message}` });
      throw error;
    }
  };
  frame.srcdoc = content?.text ?? '';
  await initialized;
  await bridge.sendToolInput({ arguments: request.args });
  await bridge.sendToolResult(result as never);
  return { uri, mimeType: content?.mimeType, toolMeta: tool._meta, csp: content?._meta?.ui?.csp, structuredContent: result.structuredContent, viewCalls };
}

Object.assign(window, { hostView, viewCalls });
