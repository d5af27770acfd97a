/**
 * The grouping extension (SEP-2084, `io.modelcontextprotocol/grouping`, experimental): a server
 * names groups of its primitives, lists them with `groups/list`, and marks each tool, prompt and
 * resource with the groups it belongs to under this `_meta` key. A toolset is a group.
 */
export const GROUPING_EXTENSION = 'io.modelcontextprotocol/grouping';
export const GROUPS_META_KEY = 'io.modelcontextprotocol/groups';

/** The `_meta` that puts a primitive (or a group) in the groups named. */
export function groupMeta(...groups: string[]): Record<string, string[]> {
  return { [GROUPS_META_KEY]: groups };
}
