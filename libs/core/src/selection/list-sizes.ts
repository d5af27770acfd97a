import type { CatalogSlice } from './catalog-slice';
import type { Selection } from './selection';

/** How much of a model's context a `tools/list` answer takes. */
export interface ListSize {
  bytes: number;
  /** Bytes ÷ 4: the usual estimate for JSON in a model's context. */
  estimatedTokens: number;
}

export interface GroupSize extends ListSize {
  /** The toolset's name: what `?toolsets=` selects. */
  name: string;
  tools: number;
}

/** A server's `tools/list` whole, per group (toolset), in discovery mode, and in code mode where it serves it. */
export interface CatalogSizes {
  whole: ListSize & { tools: number };
  groups: GroupSize[];
  discovery: ListSize;
  code?: ListSize;
}

const sizeOf = (value: unknown): ListSize => {
  const bytes = Buffer.byteLength(JSON.stringify(value));
  return { bytes, estimatedTokens: Math.round(bytes / 4) };
};

/** The sizes of the lists `views` answer with (each computed from the very list a client gets). */
export function catalogSizes(views: { view(selection: Selection): CatalogSlice; readonly codeMode?: unknown }): CatalogSizes {
  const whole = views.view({ readonly: false, mode: 'tools' });
  return {
    whole: { ...sizeOf(whole.listResult), tools: whole.tools.size },
    groups: whole.groups.map((name) => {
      const view = views.view({ toolsets: [name], readonly: false, mode: 'tools' });
      return { name, tools: view.tools.size, ...sizeOf(view.listResult) };
    }),
    discovery: sizeOf(views.view({ readonly: false, mode: 'discovery' }).listResult),
    ...(views.codeMode !== undefined && { code: sizeOf(views.view({ readonly: false, mode: 'code' }).listResult) }),
  };
}

const n = (value: number) => value.toLocaleString('en');
const tools = (count: number) => `${n(count)} tool${count === 1 ? '' : 's'}`;

/** `tools/list: 12 tools, 9,120 bytes (~2,280 tokens); in discovery mode 2,410 bytes (~603 tokens)` (and in code mode, where served), then one line per group. */
export function formatCatalogSizes(sizes: CatalogSizes, maxGroups = 12): string[] {
  const { whole, discovery, code, groups } = sizes;
  const inCodeMode = code ? `; in code mode ${n(code.bytes)} bytes (~${n(code.estimatedTokens)} tokens)` : '';
  const lines = [
    `tools/list: ${tools(whole.tools)}, ${n(whole.bytes)} bytes (~${n(whole.estimatedTokens)} tokens); in discovery mode ${n(discovery.bytes)} bytes (~${n(discovery.estimatedTokens)} tokens)${inCodeMode}`,
  ];
  if (groups.length > 1) {
    const largest = [...groups].sort((a, b) => b.bytes - a.bytes);
    for (const group of largest.slice(0, maxGroups)) lines.push(`  group ${group.name}: ${tools(group.tools)}, ${n(group.bytes)} bytes (~${n(group.estimatedTokens)} tokens)`);
    if (largest.length > maxGroups) lines.push(`  … and ${largest.length - maxGroups} smaller groups`);
  }
  return lines;
}

/**
 * Why a server's whole list is over its `listBudgetTokens`, and what to do: select groups, split
 * the server, or serve it in discovery mode. Undefined when it fits.
 */
export function listBudgetProblem(server: string, sizes: CatalogSizes, budget: number): string | undefined {
  if (sizes.whole.estimatedTokens <= budget) return undefined;
  const fitting = sizes.groups.filter((group) => group.estimatedTokens <= budget).map((group) => group.name);
  const over = sizes.groups.filter((group) => group.estimatedTokens > budget).sort((a, b) => b.bytes - a.bytes);
  const advice = [
    fitting.length > 0 && `have clients select groups that fit (?toolsets=${fitting.slice(0, 3).join(',')}, or X-MCP-Toolsets; ${fitting.length} of ${sizes.groups.length} groups fit alone)`,
    over.length > 0 && `split the groups that do not fit alone (${over.slice(0, 5).map((g) => `${g.name} ~${n(g.estimatedTokens)}`).join(', ')}${over.length > 5 ? `, and ${over.length - 5} more` : ''}) into smaller toolsets`,
    sizes.discovery.estimatedTokens <= budget && `serve it in discovery mode (buildServer({ mode: 'discovery' }): ~${n(sizes.discovery.estimatedTokens)} tokens, or ?mode=discovery per request)`,
  ].filter(Boolean);
  return `Server '${server}': tools/list is ~${n(sizes.whole.estimatedTokens)} tokens, over its listBudgetTokens of ${n(budget)}. To fit: ${advice.join('; or ')}.`;
}
