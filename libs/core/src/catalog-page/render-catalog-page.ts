import type { Tool } from '@modelcontextprotocol/server';
import type { CompiledTool } from '../compiled/tool-catalog';
import type { ServerDefinition } from '../server/build-server';
import { clientConfigs } from './client-config';
import { html, SafeHtml } from './html';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets';
import { sampleValue } from './sample-value';
import { schemaView, type JsonSchema } from './schema-view';
import { viewPreviewPath } from './view-preview';
import { firstSentence } from '../selection/search-text';

/** One served server, as the page lists it. */
export interface PageMount {
  server: ServerDefinition;
  /** Its MCP endpoint's path, e.g. `/mcp` or `/hello/mcp`. */
  path: string;
  /** Its door, when it checks access tokens: who issues them. */
  auth?: { describe(): { issuer: string } };
}

/** The hints a reader should see at a glance, shown when the tool sets them true. */
const ANNOTATION_BADGES: readonly [keyof NonNullable<Tool['annotations']>, string][] = [
  ['readOnlyHint', 'read-only'],
  ['destructiveHint', 'destructive'],
  ['idempotentHint', 'idempotent'],
  ['openWorldHint', 'open world'],
];

/** The page's own inline style and script: fixed text of this library, hashed into the CSP. */
const STYLE = new SafeHtml(PAGE_STYLE);
const SCRIPT = new SafeHtml(PAGE_SCRIPT);

/** The page's HTML. */
export function renderCatalogPage(mounts: readonly PageMount[]): string {
  const toolCount = mounts.reduce((sum, mount) => sum + (mount.auth ? 0 : mount.server.catalog.tools.size), 0);
  const title = mounts.length === 1 ? `${mounts[0].server.name}: MCP tools` : 'MCP servers';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${title}</h1>
<input id="search" type="search" placeholder="Find a tool by name, description or argument (press /)" aria-label="Find a tool" autocomplete="off">
<div id="count">${toolCount} tools</div>
</header>
<main>
${mounts.map(serverSection)}
</main>
<footer><p class="muted">Scripts and clients get this catalog as JSON: <code>GET /</code> with <code>Accept: application/json</code>.</p></footer>
<script>${SCRIPT}</script>
</body>
</html>
`.value;
}

function serverSection({ server, path, auth }: PageMount): SafeHtml {
  const headers = server.credentialHeaders;
  const issuer = auth?.describe().issuer;
  return html`<section class="server" id="server-${server.name}">
<h2>${server.name} <span class="muted">${server.version}</span></h2>
<p>Endpoint (streamable HTTP): <code><span class="mcp-url" data-path=".${path}">${path}</span></code></p>
${
  headers.length > 0 &&
  html`<p>Send ${headers.map((header, i) => html`${i > 0 ? ', ' : ''}<code>${header}</code>`)} with every request: credentials are read from headers, never from tool arguments.</p>`
}
${issuer && html`<p>Needs an OAuth access token from <code>${issuer}</code>: a client that implements MCP authorization signs in when it first connects, and sees the tools its scopes allow.</p>`}
<details class="config"><summary>Add it to a client</summary>
${clientConfigs(server.name, path, headers).map(({ client, snippet }) => html`<div class="snippet"><h4>${client} <button class="copy" type="button">Copy</button></h4><pre>${snippet}</pre></div>`)}
</details>
${issuer ? '' : memberLists(server, path)}
</section>`;
}

/** What a server holds: its groups, tools, prompts and resources (not shown for a server that checks tokens). */
function memberLists(server: ServerDefinition, path: string): SafeHtml {
  const { catalog } = server;
  return html`${groupList(server, path)}
<div class="tools">
<h3>Tools (${catalog.tools.size})</h3>
${[...catalog.tools.values()].map((tool) => toolEntry(server.name, tool))}
</div>
${promptList(server)}
${resourceList(server)}`;
}

/**
 * The server's groups (toolsets) with their tool counts and list sizes, and a picker that builds
 * the URL of a selection (groups, read-only, discovery mode, or code mode where served): what a client puts in its
 * configuration instead of the whole catalog. The page's script writes the URL as boxes change.
 */
function groupList(server: ServerDefinition, path: string): SafeHtml | false {
  const { groups, whole, discovery, code } = server.views.sizes;
  if (groups.length < 2) return false;
  const n = (value: number) => value.toLocaleString('en');
  return html`<details class="groups"><summary>Select groups: all ${n(whole.tools)} tools take ~${n(whole.estimatedTokens)} tokens of a model's context; discovery mode ~${n(discovery.estimatedTokens)}${code ? `; code mode ~${n(code.estimatedTokens)}` : ''}</summary>
<div class="picker" data-path=".${path}" data-discovery-tokens="${String(discovery.estimatedTokens)}"${code ? html` data-code-tokens="${String(code.estimatedTokens)}"` : ''}>
<table class="schema"><thead><tr><th>Group</th><th>Tools</th><th>tools/list</th></tr></thead><tbody>
${groups.map(
  (group) =>
    html`<tr><td><label><input type="checkbox" class="pick-group" value="${group.name}" data-tokens="${String(group.estimatedTokens)}"> ${group.name}</label></td><td>${n(group.tools)}</td><td>${n(group.bytes)} bytes (~${n(group.estimatedTokens)} tokens)</td></tr>`,
)}
</tbody></table>
<p><label><input type="checkbox" class="pick-readonly"> read-only tools only</label> <label><input type="checkbox" class="pick-discovery"> discovery mode (search_tools, browse_tools, describe_tools, call_tool)</label>${code ? html` <label><input type="checkbox" class="pick-code"> code mode (search, describe, execute)</label>` : ''}</p>
<p>URL for this selection: <code class="selected-url"><span class="mcp-url" data-path=".${path}">${path}</span></code> <span class="selected-size muted"></span></p>
<p class="muted">The same selection as headers: X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Mode.</p>
</div>
</details>`;
}

function promptList({ catalog }: ServerDefinition): SafeHtml | false {
  const prompts = [...catalog.prompts.values()].map(({ descriptor }) => descriptor);
  if (prompts.length === 0) return false;
  const argumentsOf = (args: NonNullable<(typeof prompts)[number]['arguments']>) =>
    args.length > 0 && html` <span class="muted">(${args.map((a, i) => html`${i > 0 ? ', ' : ''}<code>${a.name}</code>${a.required ? '' : '?'}`)})</span>`;
  return html`<h3>Prompts (${prompts.length})</h3><ul>${prompts.map((p) => html`<li><code>${p.name}</code>: ${p.description}${argumentsOf(p.arguments ?? [])}</li>`)}</ul>`;
}

function resourceList({ catalog }: ServerDefinition): SafeHtml | false {
  const entries = [
    ...[...catalog.resources.values()].map(({ descriptor }) => ({ address: descriptor.uri, mimeType: descriptor.mimeType, description: descriptor.description })),
    ...catalog.templates.map(({ descriptor }) => ({ address: descriptor.uriTemplate, mimeType: descriptor.mimeType, description: descriptor.description })),
  ];
  if (entries.length === 0) return false;
  return html`<h3>Resources (${entries.length})</h3><ul>${entries.map(
    (r) => html`<li><code>${r.address}</code>${r.mimeType && html` <span class="muted">${r.mimeType}</span>`}: ${r.description}</li>`,
  )}</ul>`;
}

function toolEntry(serverName: string, compiled: CompiledTool): SafeHtml {
  const { descriptor: tool, requiredScopes: scopes } = compiled;
  const input = tool.inputSchema as JsonSchema;
  const output = tool.outputSchema as JsonSchema | undefined;
  const argumentNames = Object.keys(input.properties ?? {});
  const search = [tool.name, tool.title, tool.description, ...argumentNames].filter(Boolean).join(' ').toLowerCase();
  const badges = [
    ...ANNOTATION_BADGES.filter(([key]) => tool.annotations?.[key] === true).map(([key, label]) => html`<span class="badge${key === 'destructiveHint' ? ' destructive' : ''}">${label}</span>`),
    ...scopes.map((scope) => html`<span class="badge scope" title="OAuth scope a caller's token needs">${scope}</span>`),
    compiled.view && html`<span class="badge view" title="Hosts with MCP Apps show the result in a view">view</span>`,
  ];
  return html`<details class="tool" id="tool-${serverName}-${tool.name}" data-search="${search}">
<summary><code class="name">${tool.name}</code>${tool.title && html` ${tool.title}`}${badges}<span class="summary-text">${firstSentence(tool.description ?? '')}</span></summary>
${tool.description && html`<p>${tool.description}</p>`}
<h4>Arguments</h4>
${argumentNames.length === 0 ? html`<p class="muted">None.</p>` : schemaView(input)}
<h4>Result</h4>
${output ? schemaView(output) : html`<p class="muted">Unstructured content (no output schema).</p>`}
${compiled.view && viewSection(serverName, compiled, output)}
</details>`;
}

/**
 * A tool's view: its URI, size and declared origins, and a button that loads it in a sandboxed
 * frame fed a sample result made up from the output schema (the page's script plays the host).
 */
function viewSection(serverName: string, tool: CompiledTool, output: JsonSchema | undefined): SafeHtml {
  const { content } = tool.view!;
  const csp = (content.contents._meta?.['ui'] as { csp?: Record<string, string[]> } | undefined)?.csp ?? {};
  const origins = Object.entries(csp).flatMap(([list, values]) => values.map((origin) => `${origin} (${list})`));
  const sample = JSON.stringify(output ? sampleValue(output) : { message: 'A sample result.' });
  const args = JSON.stringify(sampleValue(tool.descriptor.inputSchema));
  return html`<h4>View</h4>
<p>Hosts with MCP Apps show the result in <code>${content.uri}</code> (${content.bytes.toLocaleString('en')} bytes); it reaches ${origins.length > 0 ? origins.join(', ') : 'no other origin'}.</p>
<div class="view-preview" data-src="./${viewPreviewPath(serverName, tool.name)}" data-tool="${tool.name}" data-args="${args}" data-sample="${sample}"><button class="preview" type="button">Preview with a sample result</button></div>`;
}

