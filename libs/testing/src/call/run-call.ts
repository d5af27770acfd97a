import { Client, ClientCredentialsProvider, InsufficientScopeError, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult } from '@modelcontextprotocol/client';
import { httpDispatch, MODERN_REVISION } from '../http-dispatch';
import { HEADERS_VARIABLE, OAUTH_VARIABLES, type CallOptions } from './call-options';
import { importEsm } from './esm-import';
import { TerminalAnswers } from './terminal-answers';

type TasksLibrary = typeof import('@modelcontextprotocol/ext-tasks/client');

/** Where the call writes: the result on `out`, status, questions and errors on `err`. */
export interface CallStreams {
  in: NodeJS.ReadableStream;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

const CLIENT_INFO = { name: 'toolsets-call', version: '1.0.0' };

/** Runs the call the options describe; resolves with the exit status (0, or 1 when the tool answered an error). */
export async function runCall(options: CallOptions, io: CallStreams, interrupted: AbortSignal): Promise<number> {
  const answers = new TerminalAnswers(io.in, io.err);
  const credentials = options.oauth && { clientId: options.oauth.clientId, clientSecret: options.oauth.clientSecret, expectedIssuer: options.oauth.issuer, ...(options.oauth.scope && { scope: options.oauth.scope }), clientName: CLIENT_INFO.name };
  const provider = credentials && (options.exactScopes ? new ExactScopes(credentials, options.oauth?.scope) : new ClientCredentialsProvider(credentials));
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: options.era === 'auto' ? 'auto' : options.era === '2025-11-25' ? 'legacy' : { pin: options.era } },
    capabilities: { elicitation: { form: {}, url: {} }, roots: {} },
  });
  if (!options.task) {
    // A task's questions go through the tasks library, which reads only requests the client has no handler for.
    client.setRequestHandler('elicitation/create', async (request) => (await answers.elicit(request.params as Record<string, unknown>)) as never);
    client.setRequestHandler('roots/list', async () => answers.roots());
  }
  try {
    const transport = { requestInit: { headers: options.headers }, ...(provider && { authProvider: provider }), ...(options.exactScopes && { onInsufficientScope: 'throw' as const }) };
    await client.connect(new StreamableHTTPClientTransport(options.url, transport));
    if (options.list) {
      const { tools } = await client.listTools();
      for (const listed of tools) io.out.write(`${listed.name}\t${(listed.description ?? '').split('\n')[0]}\n`);
      return 0;
    }
    const result = options.task ? await callAsTask(client, options, answers, io, interrupted, () => provider?.tokens()?.access_token) : ((await client.callTool({ name: options.tool!, arguments: options.args }, { signal: interrupted })) as CallToolResult);
    if (!result) return 130;
    const text = result.content?.filter((block) => block.type === 'text').map((block) => (block as { text: string }).text).join('\n');
    io.out.write(`${result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, 2) : (text ?? '')}\n`);
    return result.isError ? 1 : 0;
  } catch (error) {
    if (interrupted.aborted) return 130;
    throw explained(error, options);
  } finally {
    answers.close();
    await client.close().catch(() => undefined);
  }
}

/**
 * The call as a task, through the official requester library (`@modelcontextprotocol/ext-tasks`):
 * it speaks both revisions' task protocols. Status changes go to stderr, questions to the
 * terminal; `interrupted` (Ctrl-C) cancels the task. Resolves with the result, or `undefined` once cancelled.
 */
async function callAsTask(client: Client, options: CallOptions, answers: TerminalAnswers, io: CallStreams, interrupted: AbortSignal, token: () => string | undefined): Promise<CallToolResult | undefined> {
  const tasks = await importEsm<TasksLibrary>('@modelcontextprotocol/ext-tasks/client');
  const declarations = new Map((await client.listTools()).tools.map((tool) => [tool.name, tasks.toolDeclarationFromMcpTool(tool)]));
  const bearer = (): Record<string, string> => (token() ? { authorization: `Bearer ${token()}` } : {});
  const dispatch = httpDispatch(options.url, options.headers);
  let questions = 0;
  const session = tasks.createTaskSessionFromClient(client as never, {
    endpointId: options.url.href,
    tools: { currentTool: (name) => declarations.get(name) },
    // The 2026-07-28 task methods go as raw requests (the SDK client's codecs reject them), with the routing headers and the token.
    rawDispatch: ((request: unknown, dispatchOptions?: { signal?: AbortSignal; context?: { headers?: Record<string, string> } }) =>
      dispatch(request, { ...dispatchOptions, context: { headers: { ...bearer(), ...dispatchOptions?.context?.headers } } })) as never,
    v2RequestFraming: { protocolVersion: MODERN_REVISION, clientInfo: CLIENT_INFO, clientCapabilities: { elicitation: { form: {}, url: {} }, roots: {} } },
    onInputRequest: (async (request: { kind: string; params?: Record<string, unknown> }) => {
      questions++;
      if (request.kind === 'elicitation') return answers.elicit(request.params ?? {});
      if (request.kind === 'roots') return answers.roots();
      throw new Error('toolsets-call cannot answer a sampling request (it has no model to ask).');
    }) as never,
  });
  try {
    const execution = await session.callTool(options.tool!, options.args as never, { task: { preference: 'prefer' }, headers: bearer() });
    if (execution.kind !== 'task') {
      io.err.write('(the server answered at once, without a task)\n');
      return resultOf(await execution.result());
    }
    const taskId = execution.handle.taskId;
    io.err.write(`task ${taskId} created (Ctrl-C cancels it)\n`);
    const cancel = () => void execution.cancel().catch(() => undefined);
    interrupted.addEventListener('abort', cancel, { once: true });
    let last = '';
    const unheard = unheardQuestionHint(client, io, () => questions);
    const { outcome } = await execution.settle({
      onEvent: (event) => {
        const view = tasks.taskViewFromExecutionEvent(event);
        const line = view && `${view.status}${view.statusMessage ? `: ${view.statusMessage}` : ''}`;
        // Through the answers: a status that arrives while a question waits gets a line of its own.
        if (line && line !== last) answers.notice(`task ${taskId} ${(last = line)}`);
        if (view?.status === 'input_required') unheard();
      },
    });
    interrupted.removeEventListener('abort', cancel);
    if (outcome.status === 'cancelled') {
      io.err.write(`task ${taskId} cancelled\n`);
      return undefined;
    }
    return resultOf(outcome);
  } finally {
    await session.close().catch(() => undefined);
  }
}

/**
 * A 2025-11-25 task's question reaches a client only as a request on a connection that carries
 * answers back (an HTTP session): when a task asks and no question arrives, say how to answer it.
 */
function unheardQuestionHint(client: Client, io: CallStreams, asked: () => number): () => void {
  let hinted = false;
  return () => {
    if (hinted || client.getProtocolEra() !== 'legacy') return;
    const before = asked();
    setTimeout(() => {
      if (hinted || asked() !== before) return;
      hinted = true;
      io.err.write('(the question has not reached this client: a 2025-11-25 task asks only over a server that keeps sessions, MCP_SESSIONS=on; --era 2026-07-28 answers it here over any server. Ctrl-C cancels the task.)\n');
    }, 2_000).unref();
  };
}

function resultOf(outcome: { status: string; result?: unknown; error?: Error }): CallToolResult {
  if (outcome.status === 'completed') return outcome.result as CallToolResult;
  throw new Error(`The task ${outcome.status}: ${outcome.error?.message ?? 'no reason given'}`);
}

/**
 * Client credentials that ask the issuer for exactly the configured scopes (or none, for its
 * default), whatever the server's metadata or a 403 names: the SDK's auth flow otherwise asks for
 * the scopes the server advertises, so a token could never lack one.
 */
class ExactScopes extends ClientCredentialsProvider {
  constructor(
    options: ConstructorParameters<typeof ClientCredentialsProvider>[0],
    private readonly scope: string | undefined,
  ) {
    super(options);
  }

  override prepareTokenRequest(): URLSearchParams {
    return super.prepareTokenRequest(this.scope);
  }
}

/** The error with what to do next, where the client's own message does not say. */
function explained(error: unknown, options: CallOptions): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof InsufficientScopeError) {
    const asked = options.oauth?.scope ? `the token has ${options.oauth.scope}` : `the token has the issuer's default scopes (${OAUTH_VARIABLES.scopes} unset)`;
    return new Error(`The server refused the call: 403 insufficient_scope, it needs ${error.requiredScope ?? error.errorDescription ?? 'a scope it did not name'}, and ${asked}. --exact-scopes does not ask for more; leave it out to let the client ask the issuer for the scope and call again.`);
  }
  if (/invalid_client/.test(message)) return new Error(`The issuer refused the client (invalid_client): check ${OAUTH_VARIABLES.clientId} and ${OAUTH_VARIABLES.clientSecret}.`);
  const status = (error as { code?: unknown; status?: unknown }).code ?? (error as { status?: unknown }).status;
  if (error instanceof UnauthorizedError || status === 401 || /\b401\b|unauthori[sz]ed|needs an OAuth access token/i.test(message)) {
    return new Error(
      options.oauth
        ? `The server refused the token from ${options.oauth.issuer}: ${message}. Check that the issuer is the one the server trusts (AUTH_ISSUER) and that its tokens are for this URL.`
        : `The server wants a token (${message}). Set ${OAUTH_VARIABLES.clientId}, ${OAUTH_VARIABLES.clientSecret} and ${OAUTH_VARIABLES.issuer} (npm run issuer prints a set), or send one as "authorization: Bearer …" in ${HEADERS_VARIABLE}.`,
    );
  }
  if (!options.task && /-32021|runs only as a task|params\.task/.test(message)) return new Error(`${message} (toolsets-call: add --task)`);
  return error instanceof Error ? error : new Error(message);
}
