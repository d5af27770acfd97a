/**
 * A tool's view: an MCP Apps (`io.modelcontextprotocol/ui`) HTML page the host renders beside the
 * conversation, fed the tool's input and its typed, validated result. Declared once with
 * `defineView` and linked to one or more tools with `@Tool({ view })`.
 */

/** The MIME type of an MCP Apps view (`RESOURCE_MIME_TYPE` in `@modelcontextprotocol/ext-apps`). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's identifier, under `capabilities.extensions`. */
export const VIEWS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The origins a view reaches; the host builds the iframe's Content-Security-Policy from them. Empty or absent: none. */
export interface ViewCsp {
  /** Origins for fetch, XHR and WebSocket (`connect-src`): `https://api.example.com`, `wss://live.example.com`. */
  connectDomains?: readonly string[];
  /** Origins for scripts, styles, images, fonts and media: `https://cdn.example.com`, `https://*.example.com`. */
  resourceDomains?: readonly string[];
  /** Origins for nested iframes (`frame-src`). */
  frameDomains?: readonly string[];
  /** Allowed base URIs of the document (`base-uri`). */
  baseUriDomains?: readonly string[];
}

/** Browser capabilities a view asks the host for (the iframe's `allow` attribute); hosts may refuse. */
export interface ViewPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

export interface ViewOptions {
  /** The view's resource URI, `ui://<server-or-toolset>/<name>`: what tools point at and hosts read. */
  uri: string;
  /** Defaults to the URI's last segment. */
  name?: string;
  title?: string;
  /** What the view shows; hosts may show it to the user. */
  description?: string;
  /**
   * The built, self-contained HTML file (its scripts and styles inlined), as an absolute path:
   * `viewBundle(__dirname, 'notes-board')` finds `dist/views/notes-board.html` in the library the
   * calling file belongs to. Read once, when the server is built.
   */
  bundle?: string;
  /** The HTML itself, for a view small enough to write inline (instead of `bundle`). */
  html?: string;
  csp?: ViewCsp;
  permissions?: ViewPermissions;
  /** A dedicated sandbox origin; its format is the host's (see the host's documentation). */
  domain?: string;
  /** Whether the view asks the host for a visible border and background. Say it: hosts' defaults differ. */
  prefersBorder?: boolean;
}

const VIEW = Symbol.for('toolsets.view');

/** A view as `defineView` returns it: what `@Tool({ view })` takes. */
export type ViewDefinition = Readonly<ViewOptions> & { readonly [VIEW]: true };

/** Who may call a tool that has a view: the model, the view (`app`), or both (the default). */
export type ViewVisibility = 'model' | 'app';

/** `@Tool({ view })`: the view, or the view and who may call the tool. */
export type ToolViewDeclaration = ViewDefinition | { view: ViewDefinition; visibility?: readonly ViewVisibility[] };

/** Declares a view. Checked by the startup gate of every server that serves a tool linked to it. */
export function defineView(options: ViewOptions): ViewDefinition {
  return Object.freeze({ ...options, [VIEW]: true as const });
}

export function isViewDefinition(value: unknown): value is ViewDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[VIEW] === true;
}
