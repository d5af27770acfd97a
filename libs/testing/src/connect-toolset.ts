import { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as LegacyInMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, type CallToolResult, type ClientCapabilities, type CreateMessageRequestParams, type CreateMessageResult, type Root, type Tool } from '@modelcontextprotocol/server';
import { buildServer, type ClassType, type ConnectionHandle, type Selection, type ServerDefinition } from '@toolsets/core';
import type { DependencyContainer } from 'tsyringe';

export interface ConnectToolsetOptions {
  /** HTTP headers every call carries, as a real client configured with them would send. */
  headers?: Record<string, string>;
  /** `modern` (default): the SDK v2 Client on 2026-07-28; `legacy`: the v1 SDK Client (2025 era). */
  era?: 'modern' | 'legacy';
  /** App-level services for the toolsets' constructors. */
  container?: DependencyContainer;
  /** What the connection sees, as `?toolsets=`, `?readonly=1` and `?mode=discovery` select over HTTP. */
  selection?: Partial<Selection>;
  /**
   * Answers the tool's questions to the user (`context.elicit`, `task.requireInput`), as a client
   * with elicitation would: given the message and the form's schema, return the user's answer.
   */
  onElicit?: (params: { message: string; requestedSchema?: unknown }) => Promise<ElicitAnswer> | ElicitAnswer;
  /** Answers the tool's questions to the client's model (`context.sample`), as a client with sampling would. */
  onSample?: (params: CreateMessageRequestParams) => Promise<CreateMessageResult> | CreateMessageResult;
  /** The client's roots (`context.roots()`), as a client with the roots capability lists them. */
  roots?: readonly Root[];
}

/** The user's answer to an elicitation: the form's fields when accepted. */
export type ElicitAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/**
 * The v1 SDK's `Client` that `era: 'legacy'` connects, typed by the calls it shares with the v2
 * `Client` (the wire is the same), so these declarations never load the v1 SDK's own: those fail
 * to compile without `skipLibCheck` under `module: node16`. Cast to
 * `import('@modelcontextprotocol/sdk/client/index.js').Client` for anything else.
 */
export type LegacyClient = Pick<Client, 'callTool' | 'listTools' | 'listPrompts' | 'getPrompt' | 'listResources' | 'listResourceTemplates' | 'readResource' | 'complete' | 'ping' | 'close'>;

/** A connected client with the calls a toolset test makes. */
export interface ToolsetClient {
  /** The SDK client itself, for anything not covered here. */
  readonly client: Client | LegacyClient;
  listTools(): Promise<Tool[]>;
  /** Calls a tool; `isError` results come back as results, protocol errors reject. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /**
   * The MCP Apps view a tool shows its result in, as a host gets it: the tool's
   * `_meta.ui.resourceUri` from tools/list, then that resource from resources/read. Throws when
   * the tool has none.
   */
  readView(toolName: string): Promise<ToolView>;
  close(): Promise<void>;
}

/** A tool's view as `resources/read` serves it. */
export interface ToolView {
  uri: string;
  mimeType: string | undefined;
  html: string;
  /** The view's `_meta.ui`: CSP, permissions, domain, border preference. */
  ui: Record<string, unknown> | undefined;
}

/**
 * Builds a server from toolset classes (through the startup gate) or takes a built one, and connects
 * the SDK's own Client to it in memory, so every toolset test talks MCP the way a real client does.
 */
export async function connectToolset(
  toolsets: ClassType | readonly ClassType[] | ServerDefinition,
  options: ConnectToolsetOptions = {},
): Promise<ToolsetClient> {
  const server = isToolsetServer(toolsets)
    ? toolsets
    : buildServer({
        name: 'toolset-under-test',
        version: '0.0.0',
        toolsets: Array.isArray(toolsets) ? toolsets : [toolsets as ClassType],
        container: options.container,
        logger: { info: () => undefined, warn: () => undefined, error: (message, fields) => console.error(message, fields) },
      });
  const connection = {
    headers: options.headers,
    ...(options.selection && { selection: { readonly: false, mode: 'tools' as const, ...options.selection } }),
  };
  let handle: ConnectionHandle;
  let client: Client | LegacyClient;
  if (options.era === 'legacy') {
    const [clientSide, serverSide] = LegacyInMemoryTransport.createLinkedPair();
    handle = await server.connect(serverSide as never, connection);
    const legacy = new V1Client({ name: 'toolsets-testing', version: '0.0.0' }, { capabilities: capabilitiesOf(options) });
    const { onElicit, onSample, roots } = options;
    if (onElicit) legacy.setRequestHandler(ElicitRequestSchema, async (request) => (await onElicit(request.params as never)) as never);
    if (onSample) legacy.setRequestHandler(CreateMessageRequestSchema, async (request) => (await onSample(request.params as never)) as never);
    if (roots) legacy.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
    await legacy.connect(clientSide);
    client = legacy as unknown as LegacyClient;
  } else {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    handle = await server.connect(serverSide, connection);
    const modern = new Client({ name: 'toolsets-testing', version: '0.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: capabilitiesOf(options) });
    const { onElicit, onSample, roots } = options;
    if (onElicit) modern.setRequestHandler('elicitation/create', async (request) => (await onElicit(request.params as never)) as never);
    if (onSample) modern.setRequestHandler('sampling/createMessage', async (request) => (await onSample(request.params as never)) as never);
    if (roots) modern.setRequestHandler('roots/list', () => ({ roots: [...roots] }));
    await modern.connect(clientSide);
    client = modern;
  }
  return {
    client,
    async listTools() {
      return (await client.listTools()).tools as Tool[];
    },
    async call(name, args = {}) {
      return (await client.callTool({ name, arguments: args })) as CallToolResult;
    },
    async readView(toolName) {
      const tool = ((await client.listTools()).tools as Tool[]).find((candidate) => candidate.name === toolName);
      if (!tool) throw new Error(`No tool '${toolName}' in tools/list.`);
      const uri = (tool._meta?.['ui'] as { resourceUri?: string } | undefined)?.resourceUri;
      if (!uri) throw new Error(`The tool '${toolName}' has no view (no _meta.ui.resourceUri in tools/list).`);
      const [content] = (await client.readResource({ uri })).contents as { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }[];
      return { uri, mimeType: content?.mimeType, html: content?.text ?? '', ui: content?._meta?.['ui'] as Record<string, unknown> | undefined };
    },
    async close() {
      await client.close();
      await handle.close();
    },
  };
}

/** What the client declares: each kind of question it has an answer for. */
function capabilitiesOf(options: ConnectToolsetOptions): ClientCapabilities {
  return { ...(options.onElicit && { elicitation: {} }), ...(options.onSample && { sampling: {} }), ...(options.roots && { roots: {} }) };
}

function isToolsetServer(value: unknown): value is ServerDefinition {
  return typeof value === 'object' && value !== null && 'catalog' in value && 'connect' in value;
}
