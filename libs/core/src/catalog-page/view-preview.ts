import type { ViewContent } from '../compiled/tool-catalog';

type Csp = { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };

/**
 * The Content-Security-Policy a view is previewed under: the one MCP Apps hosts build from the
 * view's declared origins (and nothing else), in a sandbox of its own even when the address is
 * opened directly, so a view never runs with the server's origin.
 */
export function viewPreviewCsp(view: ViewContent): string {
  const csp = ((view.contents._meta?.['ui'] as { csp?: Csp } | undefined)?.csp ?? {}) as Csp;
  const resources = (csp.resourceDomains ?? []).join(' ');
  const list = (values: string[] | undefined, empty: string) => (values && values.length > 0 ? values.join(' ') : empty);
  return [
    'sandbox allow-scripts',
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `style-src 'self' 'unsafe-inline' ${resources}`.trim(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `img-src 'self' data: ${resources}`.trim(),
    `font-src 'self' ${resources}`.trim(),
    `media-src 'self' data: ${resources}`.trim(),
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Where the catalog page loads a tool's view from, relative to the page: `_view/<server>/<tool>`. */
export function viewPreviewPath(serverName: string, toolName: string): string {
  return `_view/${encodeURIComponent(serverName)}/${encodeURIComponent(toolName)}`;
}
