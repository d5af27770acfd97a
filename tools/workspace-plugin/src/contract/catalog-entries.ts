import type * as Core from '@toolsets/core';
import type { ToolEntry } from './snapshot';

/**
 * A catalog's tools as the snapshot records them: each `tools/list` entry, plus the scopes a call
 * needs and the credential headers its toolset reads (adding either shuts callers out, so the
 * snapshot compares them too).
 */
export function snapshotEntries(catalog: Core.ToolCatalog): ToolEntry[] {
  return [...catalog.tools.values()].map((tool) => ({
    ...(tool.descriptor as ToolEntry),
    ...(tool.requiredScopes.length > 0 && { requiredScopes: [...tool.requiredScopes] }),
    ...(tool.toolset.credentialHeaders.length > 0 && { credentialHeaders: [...tool.toolset.credentialHeaders].sort() }),
  }));
}
