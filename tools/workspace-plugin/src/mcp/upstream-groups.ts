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

/** The toolset a served tool joins: the first upstream group its `_meta` names, else the library's own. */
export function partOf(library: string, tool: Tool, groups: ReadonlyMap<string, UpstreamGroup>, parts: Map<string, ToolsetPart>, warnings: string[]): ToolsetPart {
  const named = groupsNamed(tool._meta).filter((name) => groups.has(name));
  if (named.length > 1) warnings.push(`${tool.name}: the upstream puts it in the groups ${named.join(', ')}; a tool belongs to one toolset here, so it is served in ${library}-${names(named[0]!).fileName} only`);
  const group = named.length > 0 ? groups.get(named[0]!) : undefined;
  const key = group?.name ?? '';
  let part = parts.get(key);
  if (!part) {
    part = group
      ? { group, toolsetName: `${library}-${names(group.name).fileName}`, className: `${names(library).className}${names(group.name).className}Toolset`, methods: [] }
      : { toolsetName: library, className: `${names(library).className}Toolset`, methods: [] };
    parts.set(key, part);
  }
  return part;
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
  const joins = new Map<ToolsetPart, string[]>();
  for (const part of parts) {
    if (!part.group) continue;
    const parents = groupsNamed(part.group._meta).filter((name) => groups.has(name));
    for (const parent of parents.filter((name) => holding.has(name))) {
      warnings.push(`group ${part.group.name}: the upstream nests it in ${parent}, which holds tools of its own and so is a toolset here; ${part.toolsetName} is not nested in it`);
    }
    const larger = parents.filter((name) => !holding.has(name));
    for (const name of larger) if (!constants.has(name)) constants.set(name, `${names(`${library}-${name}`).constantName}_GROUP`);
    if (larger.length > 0) joins.set(part, larger.map((name) => constants.get(name)!));
  }
  const source = [...constants].map(([name, constant]) => {
    const group = groups.get(name)!;
    const description = group.description?.trim() || group.title?.trim() || `The tools of the upstream group ${name}.`;
    return `/** The upstream's group ${name}, holding groups: clients see it in groups/list and may select it whole. */\nexport const ${constant} = defineGroup({ name: ${tsLiteral(`${library}-${names(name).fileName}`)}, description: ${tsLiteral(description)} });`;
  });
  return { source, joins };
}
