import { ProtocolError, ProtocolErrorCode, type ServerContext, type StandardSchemaV1 } from '@modelcontextprotocol/server';
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
 */
export function groupsHandler(catalog: ToolCatalog, viewOf: (ctx: ServerContext) => CatalogView) {
  const descriptions = new Map(catalog.toolsets.map((toolset) => [toolset.name, toolset.description]));
  return {
    params: GROUPS_PARAMS,
    handler: (params: { cursor?: string }, ctx: ServerContext) => groupsPage(viewOf(ctx), descriptions, params.cursor),
  };
}

function groupsPage(view: CatalogView, descriptions: ReadonlyMap<string, string | undefined>, cursor: string | undefined): { groups: ListedGroup[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : offsetOf(cursor);
  const counts = new Map<string, number>();
  for (const tool of view.tools.values()) counts.set(tool.toolset.name, (counts.get(tool.toolset.name) ?? 0) + 1);
  const groups = view.groups.slice(start, start + GROUPS_PAGE).map((name) => {
    const count = counts.get(name) ?? 0;
    const purpose = (descriptions.get(name) ?? `The ${name} tools`).trim().replace(/[.\s]+$/, '');
    return { name, description: `${purpose}. ${count} tool${count === 1 ? '' : 's'}.` };
  });
  const next = start + GROUPS_PAGE;
  return { groups, ...(next < view.groups.length && { nextCursor: Buffer.from(String(next)).toString('base64url') }) };
}

function offsetOf(cursor: string): number {
  const offset = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(offset) || offset <= 0) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: pass the nextCursor of an earlier groups/list answer, or none for the first page.');
  return offset;
}

