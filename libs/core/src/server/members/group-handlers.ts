import { ProtocolError, ProtocolErrorCode, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../../compiled/tool-catalog';
import type { CatalogView } from '../../selection/catalog-view';

/** The most groups one `groups/list` answer holds; `nextCursor` gives the rest. */
export const GROUPS_PAGE = 100;

/** One entry of `groups/list` (SEP-2084's Group). */
export interface ListedGroup {
  name: string;
  description: string;
  _meta?: Record<string, unknown>;
}

const GROUPS_PARAMS: StandardSchemaV1<unknown, { cursor?: string }> = {
  '~standard': {
    version: 1,
    vendor: 'toolsets',
    validate(value: unknown) {
      const params = (value ?? {}) as { cursor?: unknown };
      if (typeof params !== 'object' || Array.isArray(params)) return { issues: [{ message: 'groups/list takes an object of params, or none.' }] };
      if (params.cursor !== undefined && typeof params.cursor !== 'string') return { issues: [{ message: 'cursor must be the nextCursor of an earlier groups/list answer.', path: ['cursor'] }] };
      return { value: params as { cursor?: string } };
    },
  },
};

/**
 * `groups/list` of the grouping extension: the toolsets this request may see, each described for a
 * model choosing a namespace (what it is for, and how many of its tools the caller sees), a group
 * none of whose tools the caller may see left out. Selection, read-only mode and the token's
 * scopes filter it as they filter `tools/list`; a client loads one group with `?toolsets=<name>`.
 * Made once per server definition; each view's entries are written once, on its first request
 * (views are cached, as their lists are).
 */
export function groupsHandler(catalog: ToolCatalog) {
  const descriptions = new Map(catalog.toolsets.map((toolset) => [toolset.name, toolset.description]));
  const byView = new WeakMap<CatalogView, ListedGroup[]>();
  const entriesOf = (view: CatalogView): ListedGroup[] => {
    let entries = byView.get(view);
    if (!entries) {
      entries = groupEntries(view, descriptions);
      byView.set(view, entries);
    }
    return entries;
  };
  return {
    params: GROUPS_PARAMS,
    entries: entriesOf,
    page: (view: CatalogView, cursor: string | undefined): { groups: ListedGroup[]; nextCursor?: string } => {
      const all = entriesOf(view);
      const start = cursor === undefined ? 0 : offsetOf(cursor);
      const next = start + GROUPS_PAGE;
      return { groups: all.slice(start, next), ...(next < all.length && { nextCursor: Buffer.from(String(next)).toString('base64url') }) };
    },
  };
}

function groupEntries(view: CatalogView, descriptions: ReadonlyMap<string, string | undefined>): ListedGroup[] {
  const counts = new Map<string, number>();
  for (const tool of view.tools.values()) counts.set(tool.toolset.name, (counts.get(tool.toolset.name) ?? 0) + 1);
  return view.groups.map((name) => {
    const count = counts.get(name) ?? 0;
    const purpose = (descriptions.get(name) ?? `The ${name} tools`).trim().replace(/[.\s]+$/, '');
    return { name, description: `${purpose}. ${count} tool${count === 1 ? '' : 's'}.` };
  });
}

function offsetOf(cursor: string): number {
  const offset = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(offset) || offset <= 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of an earlier groups/list answer, or none for the first page.');
  return offset;
}

