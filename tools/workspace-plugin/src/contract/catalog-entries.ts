import type * as Core from '@toolsets/core';
import type { GroupEntry, ToolEntry, ViewRecord } from './snapshot';

/**
 * A catalog's tools as the snapshot records them: each `tools/list` entry, plus its origin (what
 * it stands for across renames, so a renamed tool is paired with its old name), the scopes a call
 * needs and the credential headers its toolset reads (adding either shuts callers out, so the
 * snapshot compares them too), and its MCP Apps view: URI, who may call it, and the view's CSP
 * and display settings, in place of the `_meta` that links it.
 */
export function snapshotEntries(catalog: Core.ToolCatalog): ToolEntry[] {
  return [...catalog.tools.values()].map((tool) => ({
    ...listed(tool),
    // Older cores record no origin.
    ...(tool.origin !== undefined && { origin: tool.origin }),
    ...(tool.view && { view: viewRecord(tool.view) }),
    ...(tool.requiredScopes.length > 0 && { requiredScopes: [...tool.requiredScopes] }),
    ...(tool.toolset.credentialHeaders.length > 0 && { credentialHeaders: [...tool.toolset.credentialHeaders].sort() }),
  }));
}

/**
 * A catalog's groups as the snapshot records them: each toolset, and each group of toolsets
 * (`defineGroup`), with its description and the larger groups it belongs to. Clients select them
 * by name and models choose among them by description.
 */
export function snapshotGroups(catalog: Core.ToolCatalog): GroupEntry[] {
  const entry = (name: string, description: string | undefined, parents: readonly string[]): GroupEntry => ({
    name,
    ...(description !== undefined && { description }),
    ...(parents.length > 0 && { groups: [...parents].sort() }),
  });
  // Older cores compile no groups of toolsets and no parents.
  const toolsets = catalog.toolsets.filter((toolset) => toolset.tools.length > 0).map((toolset) => entry(toolset.name, toolset.description, toolset.parents ?? []));
  return [...toolsets, ...(catalog.groups ?? []).map((group) => entry(group.name, group.description, group.parents))];
}

/** The tools/list entry without the `_meta` that links a view (recorded as `view` instead) or names its group. */
function listed(tool: Core.CompiledTool): ToolEntry {
  return withRecordedMeta(tool.descriptor as unknown as ToolEntry);
}

/** `_meta` keys a snapshot leaves out. */
const UNRECORDED_META = new Set(['ui', 'ui/resourceUri', 'io.modelcontextprotocol/groups']);

/**
 * An entry with only the `_meta` a snapshot records: not a view's link (recorded as `view`) nor
 * the tool's group (the toolset, which the snapshot's file already is). Also for entries gated in
 * a child process (`openapi-refresh`), so both compare alike.
 */
export function withRecordedMeta(entry: ToolEntry): ToolEntry {
  const { _meta, ...rest } = entry as ToolEntry & { _meta?: Record<string, unknown> };
  const kept = Object.fromEntries(Object.entries(_meta ?? {}).filter(([key]) => !UNRECORDED_META.has(key)));
  return { ...rest, ...(Object.keys(kept).length > 0 && { _meta: kept }) } as ToolEntry;
}

function viewRecord(view: NonNullable<Core.CompiledTool['view']>): ViewRecord {
  const ui = (view.content.contents._meta?.['ui'] ?? {}) as Omit<ViewRecord, 'uri' | 'visibility'>;
  return { uri: view.content.uri, ...(view.visibility && { visibility: [...view.visibility] }), ...ui };
}
