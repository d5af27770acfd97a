import { ProtocolError, ProtocolErrorCode, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { CompiledGroup, ToolCatalog } from '../../compiled/tool-catalog';
import { groupMeta } from '../../wire/grouping';
import type { CatalogSlice } from '../../selection/catalog-slice';
import { plural } from '../../helpers/client-text';

/** The most groups one `groups/list` answer holds; `nextCursor` gives the rest. */
export const GROUPS_PAGE = 100;

/** A view's group entry and how many tools the view has in it (what the Server Card shows too). */
export interface CountedGroup {
  listed: ListedGroup;
  tools: number;
}

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
  const toolsets = new Map(catalog.toolsets.map((toolset) => [toolset.name, { description: toolset.description, parents: toolset.parents }]));
  const byView = new WeakMap<CatalogSlice, { counted: CountedGroup[]; listed: ListedGroup[] }>();
  const entriesOf = (view: CatalogSlice) => {
    let entries = byView.get(view);
    if (!entries) {
      const counted = groupEntries(view, toolsets, catalog.groups);
      entries = { counted, listed: counted.map((group) => group.listed) };
      byView.set(view, entries);
    }
    return entries;
  };
  return {
    params: GROUPS_PARAMS,
    entries: (view: CatalogSlice): readonly CountedGroup[] => entriesOf(view).counted,
    page: (view: CatalogSlice, cursor: string | undefined): { groups: ListedGroup[]; nextCursor?: string } => {
      const all = entriesOf(view).listed;
      const start = cursor === undefined ? 0 : offsetOf(cursor);
      const next = start + GROUPS_PAGE;
      return { groups: all.slice(start, next), ...(next < all.length && { nextCursor: Buffer.from(String(next)).toString('base64url') }) };
    },
  };
}

/**
 * The view's toolsets, then the larger groups (`defineGroup`) holding any of them: each described
 * with how many tools the caller sees there, and, when it belongs to larger groups, those in its
 * `_meta` (SEP-2084's groups of groups).
 */
function groupEntries(view: CatalogSlice, toolsets: ReadonlyMap<string, { description?: string; parents: readonly string[] }>, groups: readonly CompiledGroup[]): CountedGroup[] {
  const counts = new Map<string, number>();
  for (const tool of view.tools.values()) counts.set(tool.toolset.name, (counts.get(tool.toolset.name) ?? 0) + 1);
  const visible = new Set(view.groups);
  const entry = (name: string, description: string, parents: readonly string[], tools: number): CountedGroup => ({
    listed: { name, description, ...(parents.length > 0 && { _meta: groupMeta(...parents) }) },
    tools,
  });
  const own = view.groups.map((name) => {
    const count = counts.get(name) ?? 0;
    const toolset = toolsets.get(name);
    return entry(name, `${purposeOf(toolset?.description, `The ${name} tools`)}. ${plural(count, 'tool')}.`, toolset?.parents ?? [], count);
  });
  const larger = groups.flatMap((group) => {
    const inside = group.toolsets.filter((name) => visible.has(name));
    if (inside.length === 0) return [];
    const count = inside.reduce((sum, name) => sum + (counts.get(name) ?? 0), 0);
    return [entry(group.name, `${purposeOf(group.description, `The ${group.name} tools`)}. ${plural(count, 'tool')} in ${plural(inside.length, 'group')}.`, group.parents, count)];
  });
  return [...own, ...larger];
}

function purposeOf(description: string | undefined, fallback: string): string {
  return (description ?? fallback).trim().replace(/[.\s]+$/, '');
}

function offsetOf(cursor: string): number {
  const offset = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(offset) || offset <= 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of an earlier groups/list answer, or none for the first page.');
  return offset;
}

