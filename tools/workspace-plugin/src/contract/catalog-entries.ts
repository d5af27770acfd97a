import type * as Core from '@toolsets/core';
import type { ToolEntry } from './snapshot';

/**
 * A catalog's tools as the snapshot records them: each `tools/list` entry, plus the scopes a call
 * needs (adding one shuts callers out, so the snapshot compares them too).
 */
export function snapshotEntries(catalog: Core.ToolCatalog): ToolEntry[] {
  return [...catalog.tools.values()].map((tool) => (tool.requiredScopes.length > 0 ? { ...(tool.descriptor as ToolEntry), requiredScopes: [...tool.requiredScopes] } : (tool.descriptor as ToolEntry)));
}
