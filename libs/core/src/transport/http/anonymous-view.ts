import type { ServerDefinition } from '../../server/build-server';
import type { CatalogSlice } from '../../selection/catalog-slice';

/**
 * What of a mount's catalog a caller without a token's scopes may learn of, on the public card,
 * index and health: everything on a mount that checks no tokens; on one that does, what a token
 * without scopes sees.
 */
export function anonymousView(server: ServerDefinition, checksTokens: boolean): CatalogSlice {
  return checksTokens ? server.views.view(server.views.whole.selection, []) : server.views.whole;
}

/** The toolsets of `view` that read `header`, by name. */
export function headerReaders(server: ServerDefinition, view: CatalogSlice, header: string): string[] {
  const visible = new Set([...view.tools.values()].map((tool) => tool.toolset.name));
  return server.catalog.toolsets.filter((toolset) => visible.has(toolset.name) && toolset.credentialHeaders.includes(header)).map((toolset) => toolset.name);
}

/** The declared credential headers that the toolsets of `view` read: never those of a toolset the view hides. */
export function credentialHeadersOf(server: ServerDefinition, view: CatalogSlice): string[] {
  return server.credentialHeaders.filter((header) => headerReaders(server, view, header).length > 0);
}
