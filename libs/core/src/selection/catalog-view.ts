import type { ListToolsResult } from '@modelcontextprotocol/server';
import type { CompiledTool, ToolCatalog } from '../gate/tool-catalog';
import { discoveryDescriptors } from './discovery-tools';
import type { Selection } from './selection';

/**
 * The part of a catalog one selection sees: the tools it may call, and the `tools/list` answer it
 * gets (every selected tool, or the three discovery tools). Built once per distinct selection and
 * shared by every request that makes it; the list is in catalog order, so it is the same bytes
 * every time and clients may cache it.
 */
export class CatalogView {
  /** The tools this selection may call, by name, in catalog order. */
  readonly tools: ReadonlyMap<string, CompiledTool>;
  /** The toolsets (groups) with at least one tool in this view, in catalog order. */
  readonly groups: readonly string[];
  readonly listResult: ListToolsResult;
  /** `Available tools: a, b, … and 12 more`, for a call to a tool outside the view. */
  readonly availableTools: string;

  constructor(
    catalog: ToolCatalog,
    readonly selection: Selection,
  ) {
    const chosen = selection.toolsets && new Set(selection.toolsets);
    const tools = new Map<string, CompiledTool>();
    for (const [name, tool] of catalog.tools) {
      if (chosen && !chosen.has(tool.toolset.name)) continue;
      if (selection.readonly && tool.descriptor.annotations?.readOnlyHint !== true) continue;
      tools.set(name, tool);
    }
    this.tools = tools;
    this.groups = [...new Set([...tools.values()].map((tool) => tool.toolset.name))];
    this.listResult = {
      tools: selection.mode === 'discovery' ? discoveryDescriptors(this.groups, tools.size) : [...tools.values()].map((tool) => tool.descriptor),
    };
    const names = [...tools.keys()];
    const where = selection.mode === 'discovery' ? 'search_tools' : 'tools/list';
    this.availableTools =
      names.length === 0
        ? 'No tool is available to this request: widen the selection (toolsets, read-only).'
        : `Available tools: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more (see ${where})` : ''}.`;
  }
}
