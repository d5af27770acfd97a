import { escapeHtml, html, SafeHtml } from './html';

export interface ClientConfig {
  client: string;
  /** The snippet, with the server's URL as a `.mcp-url` element the page completes from its own address. */
  snippet: SafeHtml;
}

/** Stands for the URL while a snippet is built as text; it survives JSON and HTML escaping unchanged. */
const URL_MARK = '@@MCP_URL@@';

/** The placeholder a reader replaces with their credential (the startup banner uses the same words). */
export const credentialPlaceholder = (header: string) => `<your ${header} value>`;

/**
 * How to add one server to the common MCP clients. Credential headers appear as placeholders
 * only: the page never holds a value, and a caller's own headers are never echoed.
 */
export function clientConfigs(name: string, path: string, credentialHeaders: readonly string[]): ClientConfig[] {
  const headers = credentialHeaders.length > 0 ? { headers: Object.fromEntries(credentialHeaders.map((h) => [h, credentialPlaceholder(h)])) } : {};
  const cli = [`claude mcp add --transport http ${name} ${URL_MARK}`, ...credentialHeaders.map((h) => `  --header "${h}: ${credentialPlaceholder(h)}"`)].join(' \\\n');
  const withUrl = (text: string) => new SafeHtml(escapeHtml(text).replace(URL_MARK, html`<span class="mcp-url" data-path=".${path}">${path}</span>`.value));
  return [
    { client: 'Claude Code', snippet: withUrl(cli) },
    { client: 'VS Code (.vscode/mcp.json)', snippet: withUrl(JSON.stringify({ servers: { [name]: { type: 'http', url: URL_MARK, ...headers } } }, null, 2)) },
    { client: 'Cursor, Windsurf and other mcpServers files', snippet: withUrl(JSON.stringify({ mcpServers: { [name]: { url: URL_MARK, ...headers } } }, null, 2)) },
  ];
}
