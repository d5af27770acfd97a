import { names } from '@nx/devkit';
import type { Tool } from '@modelcontextprotocol/client';
import { tsLiteral } from '@toolsets/core/ts-literal';

/** One of an upstream's groups as `groups/list` gives it; its `_meta` names the groups it belongs to. */
export interface UpstreamGroup {
  name: string;
  title?: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

/** The grouping extension (SEP-2084): a server that declares it lists its groups with `groups/list`. */
export const GROUPING_EXTENSION = 'io.modelcontextprotocol/grouping';
/** The `_meta` key naming the groups a tool (or a group) belongs to. */
const GROUPS_META = 'io.modelcontextprotocol/groups';

/** The groups a tool's or a group's `_meta` names. */
export function groupsNamed(meta: unknown): string[] {
  const named = (meta as Record<string, unknown> | undefined)?.[GROUPS_META];
  return Array.isArray(named) ? named.filter((name): name is string => typeof name === 'string') : [];
}

/** One toolset of a generated library: the library's own, or one per upstream group that holds tools. */
export interface ToolsetPart {
  /** The upstream group it serves; none: the library's own toolset (tools in no group, and the prompts and resources). */
  group?: UpstreamGroup;
  /** Its toolset name: the library's, or `<library>-<group>`. */
  toolsetName: string;
  className: string;
  methods: string[];
}

/** The group a tool is served in: the first of `groups` its `_meta` names, if any. */
export function groupOf(tool: Tool, groups: ReadonlyMap<string, UpstreamGroup>): UpstreamGroup | undefined {
  const first = groupsNamed(tool._meta).find((name) => groups.has(name));
  return first === undefined ? undefined : groups.get(first);
}

/** The toolset a served tool joins: its group's (`groupOf`), else the library's own. */
export function partOf(library: string, tool: Tool, groups: ReadonlyMap<string, UpstreamGroup>, parts: Map<string, ToolsetPart>, warnings: string[]): ToolsetPart {
  const named = groupsNamed(tool._meta).filter((name) => groups.has(name));
  if (named.length > 1) warnings.push(`${tool.name}: the upstream puts it in the groups ${named.join(', ')}; a tool belongs to one toolset here, so it is served in the toolset of ${named[0]} only`);
  const group = groupOf(tool, groups);
  const key = group?.name ?? '';
  let part = parts.get(key);
  if (!part) {
    if (group) {
      const slug = uniqueSlug(group.name, new Set([...parts.values()].map((other) => other.toolsetName)), library);
      part = { group, toolsetName: `${library}-${slug}`, className: `${names(library).className}${names(slug).className}Toolset`, methods: [] };
    } else part = { toolsetName: library, className: `${names(library).className}Toolset`, methods: [] };
    parts.set(key, part);
  }
  return part;
}

/**
 * A group's name as a toolset name's tail and a class name's: lower-case ASCII letters, digits
 * and dashes (an upstream may name a group `Pull Requests` or `日本`), never the library's own or
 * another group's.
 */
function uniqueSlug(name: string, taken: ReadonlySet<string>, library: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'group';
  let slug = base;
  for (let n = 2; taken.has(`${library}-${slug}`); n++) slug = `${base}-${n}`;
  return slug;
}

/**
 * The larger groups of a library whose upstream groups its groups: an upstream group that holds no
 * tool itself and that a toolset's group names as its own group becomes a `defineGroup`
 * (`<library>-<group>`), and that toolset joins it. A larger group that holds tools too cannot be
 * both a toolset and a group here: the toolset is kept, the nesting dropped, with a warning.
 */
export function largerGroups(library: string, parts: readonly ToolsetPart[], groups: ReadonlyMap<string, UpstreamGroup>, warnings: string[]): { source: string[]; joins: Map<ToolsetPart, string[]> } {
  const holding = new Set(parts.flatMap((part) => (part.group ? [part.group.name] : [])));
  const constants = new Map<string, string>();
  /** Each larger group's name tail, as `uniqueSlug` made it. */
  const slugs = new Map<string, string>();
  const joins = new Map<ToolsetPart, string[]>();
  for (const part of parts) {
    if (!part.group) continue;
    const parents = groupsNamed(part.group._meta).filter((name) => groups.has(name));
    for (const parent of parents.filter((name) => holding.has(name))) {
      warnings.push(`group ${part.group.name}: the upstream nests it in ${parent}, which holds tools of its own and so is a toolset here; ${part.toolsetName} is not nested in it`);
    }
    const larger = parents.filter((name) => !holding.has(name));
    for (const name of larger) {
      if (constants.has(name)) continue;
      const slug = uniqueSlug(name, new Set([...parts.map((other) => other.toolsetName), ...[...slugs.values()].map((taken) => `${library}-${taken}`)]), library);
      slugs.set(name, slug);
      constants.set(name, `${names(`${library}-${slug}`).constantName}_GROUP`);
    }
    if (larger.length > 0) joins.set(part, larger.map((name) => constants.get(name)!));
  }
  const source = [...constants].map(([name, constant]) => {
    const group = groups.get(name)!;
    const description = group.description?.trim() || group.title?.trim() || `The tools of the upstream group ${name}.`;
    return `/** The upstream's group ${slugs.get(name)!}, holding groups: clients see it in groups/list and may select it whole. */\nexport const ${constant} = defineGroup({ name: ${tsLiteral(`${library}-${slugs.get(name)!}`)}, description: ${tsLiteral(description)} });`;
  });
  return { source, joins };
}
