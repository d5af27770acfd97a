import { parseArgs } from 'node:util';

/** Headers from the environment, one 'name: value' per line: credentials stay out of `ps` and shell history. */
export const HEADERS_VARIABLE = 'TOOLSETS_CALL_HEADERS';

/** OAuth client credentials from the environment (never as arguments, for the same reason). */
export const OAUTH_VARIABLES = {
  clientId: 'TOOLSETS_CALL_CLIENT_ID',
  clientSecret: 'TOOLSETS_CALL_CLIENT_SECRET',
  issuer: 'TOOLSETS_CALL_ISSUER',
  scopes: 'TOOLSETS_CALL_SCOPES',
} as const;

/** The protocol revisions a call can speak: `auto` takes the newest the server offers. */
export const ERAS = ['auto', '2026-07-28', '2025-11-25'] as const;
export type Era = (typeof ERAS)[number];

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
  /** The only authorization server the secret may be sent to. */
  issuer: string;
  scope?: string;
}

export interface CallOptions {
  url: URL;
  tool?: string;
  args: Record<string, unknown>;
  headers: Record<string, string>;
  list: boolean;
  task: boolean;
  era: Era;
  oauth?: OAuthClient;
  /** Call with exactly the token's scopes: a 403 insufficient_scope is reported, not stepped up. */
  exactScopes: boolean;
}

export const USAGE = `Usage: toolsets-call <MCP URL> <tool> ['<arguments as JSON>'] [-H 'name: value' ...] [--task] [--era E]
       toolsets-call <MCP URL> --list

Calls one tool of a server over streamable HTTP with the SDK's own client and prints its result:
the structuredContent as JSON, else its text. Exits 1 when the tool answers with an error.
  toolsets-call http://127.0.0.1:8000/hello/mcp hello '{"name":"Ada"}'
  toolsets-call http://127.0.0.1:8000/hello/mcp --list      (the tools, one per line)

--task   runs the call as an MCP task where the tool allows one: prints each status change on
         stderr, asks the tool's questions here (one line per answer, so they can be piped in),
         and Ctrl-C cancels the task.
           X_KEY=k; ${HEADERS_VARIABLE}="x-reports-key: $X_KEY" toolsets-call http://127.0.0.1:8000/reports/mcp render_report '{"title":"Q3","pages":5}' --task
--exact-scopes
         with OAuth client credentials: call with exactly the scopes asked for (${OAUTH_VARIABLES.scopes}),
         so a tool that needs more shows the server's 403 and the scope it names, instead of the
         client asking the issuer for it and calling again (the default: step-up).
           ${OAUTH_VARIABLES.scopes}=notes:read toolsets-call http://127.0.0.1:8000/notes/mcp add_note '{"text":"hi"}' --exact-scopes
--era    the protocol revision: auto (the default: the newest the server speaks), 2026-07-28 or
         2025-11-25. Questions in a 2025-11-25 task reach a client only where the server keeps
         sessions (MCP_SESSIONS=on); 2026-07-28 answers them over any HTTP server.

Credentials come from the environment, never from arguments (other users see those in ps, and
shell history keeps them):
  ${HEADERS_VARIABLE}      one 'name: value' header per line (-H of the same name wins)
  ${OAUTH_VARIABLES.clientId}, ${OAUTH_VARIABLES.clientSecret}, ${OAUTH_VARIABLES.issuer} [, ${OAUTH_VARIABLES.scopes}]
                            OAuth client credentials: on the server's 401 the SDK's own client
                            finds the authorization server, checks it is this issuer, gets a
                            token and calls again (npm run issuer prints a ready set)
  read -rs TOKEN && ${HEADERS_VARIABLE}="x-demo-token: $TOKEN" toolsets-call http://127.0.0.1:8000/credential-demo/mcp whoami`;

/** A usage problem: the message says what to change; the CLI prints it and exits 2. */
export class CallUsageError extends Error {}

/** The call the command line and the environment describe; throws `CallUsageError` with the fix. */
export function callOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CallOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      header: { type: 'string', short: 'H', multiple: true, default: [] },
      list: { type: 'boolean', default: false },
      task: { type: 'boolean', default: false },
      era: { type: 'string', default: 'auto' },
      'exact-scopes': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [url, tool, json] = positionals;
  if (values.help) return 'help';
  if (!url || (!tool && !values.list)) throw new CallUsageError(USAGE);
  if (!URL.canParse(url)) throw new CallUsageError(`${JSON.stringify(url)} is not a URL: give the server's MCP endpoint, such as http://127.0.0.1:8000/mcp.`);
  if (!(ERAS as readonly string[]).includes(values.era)) throw new CallUsageError(`--era ${JSON.stringify(values.era)} is not a revision this client speaks: give one of ${ERAS.join(', ')}.`);
  const oauth = oauthFrom(env);
  if (values['exact-scopes'] && !oauth) throw new CallUsageError(`--exact-scopes calls with the scopes of the token the client gets: set ${OAUTH_VARIABLES.clientId}, ${OAUTH_VARIABLES.clientSecret}, ${OAUTH_VARIABLES.issuer} and ${OAUTH_VARIABLES.scopes} (npm run issuer prints a set).`);
  return {
    url: new URL(url),
    tool,
    args: jsonArguments(json),
    headers: headersFrom(env[HEADERS_VARIABLE], values.header),
    list: values.list,
    task: values.task,
    era: values.era as Era,
    oauth,
    exactScopes: values['exact-scopes'],
  };
}

function jsonArguments(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    throw new CallUsageError(`The arguments must be a JSON object, such as '{"name":"Ada"}' (got ${JSON.stringify(json.slice(0, 80))}).`);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new CallUsageError(`The arguments must be a JSON object, such as '{"name":"Ada"}'.`);
  return args as Record<string, unknown>;
}

function headersFrom(fromEnvironment: string | undefined, fromArguments: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (header: string, where: string) => {
    const colon = header.indexOf(':');
    // The name alone in the message: the value may be a credential.
    if (colon <= 0) throw new CallUsageError(`${where} holds a line that is not a header (${header.trim() === '' ? 'empty' : `no 'name: value'`}): write each as 'name: value'.`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  };
  for (const line of (fromEnvironment ?? '').split(/\r?\n/)) if (line.trim() !== '') add(line, HEADERS_VARIABLE);
  for (const header of fromArguments) add(header, `-H ${JSON.stringify(header.slice(0, Math.max(0, header.indexOf(':'))) || '…')}`);
  return headers;
}

function oauthFrom(env: NodeJS.ProcessEnv): OAuthClient | undefined {
  const { clientId, clientSecret, issuer, scopes } = OAUTH_VARIABLES;
  if (env[clientId] === undefined && env[clientSecret] === undefined) return undefined;
  const missing = [clientId, clientSecret, issuer].filter((name) => !env[name]);
  if (missing.length > 0) throw new CallUsageError(`OAuth client credentials need ${missing.join(' and ')} too (the issuer is the only authorization server the secret is sent to, such as http://127.0.0.1:9000).`);
  if (!URL.canParse(env[issuer]!)) throw new CallUsageError(`${issuer} must be the authorization server's URL, such as http://127.0.0.1:9000.`);
  const scope = env[scopes]?.split(/[\s,]+/).filter(Boolean).join(' ');
  return { clientId: env[clientId]!, clientSecret: env[clientSecret]!, issuer: env[issuer]!.replace(/\/$/, ''), ...(scope && { scope }) };
}
