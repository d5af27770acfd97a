import type { ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult, Tool } from '@modelcontextprotocol/server';
import { servesResources, type CompiledTool, type CompiledToolset, type CompiledView, type ToolCatalog } from '../compiled/tool-catalog';
import { missingScopes } from '../helpers/scopes';
import { discoveryDescriptors, SUMMARY_CHARS, type ToolGroup } from './discovery-tools';
import { firstSentence } from './search-text';
import type { Selection } from './selection';

/** The lists other than tools/list a server answers (absent when it has none of that kind). */
export interface ServedLists {
  'prompts/list'?: ListPromptsResult;
  'resources/list'?: ListResourcesResult;
  'resources/templates/list'?: ListResourceTemplatesResult;
}

/**
 * The part of a catalog one selection sees: the tools it may call, and the `tools/list` answer it
 * gets (every selected tool, or the three discovery tools). Built once per distinct selection and
 * shared by every request that makes it; the list is in catalog order, so it is the same bytes
 * every time and clients may cache it.
 */
export class CatalogSlice {
  /** The tools this selection may call, by name, in catalog order. */
  readonly tools: ReadonlyMap<string, CompiledTool>;
  /** The toolsets (groups) with at least one tool in this slice, in catalog order. */
  readonly groups: readonly string[];
  readonly listResult: ListToolsResult;
  /** `Available tools: a, b, … and 12 more`, for a call to a tool outside the slice. */
  readonly availableTools: string;
  #groupList: ToolGroup[] | undefined;
  /**
   * @param granted the scopes of the caller's verified token: tools needing others are left out.
   * Undefined where no token is checked (stdio, a mount without auth).
   * @param lists the prompts and resources those scopes allow, shared by every slice with them.
   * @param codeMode what lists code mode's tools, when the server serves it.
   */
  constructor(
    catalog: ToolCatalog,
    readonly selection: Selection,
    readonly granted: ReadonlySet<string> | undefined,
    readonly lists: ServedLists,
    codeMode?: CodeModeListing,
  ) {
    const chosen = selection.toolsets && new Set(selection.toolsets);
    const tools = new Map<string, CompiledTool>();
    for (const [name, tool] of catalog.tools) {
      if (chosen && !chosen.has(tool.toolset.name)) continue;
      if (selection.readonly && tool.descriptor.annotations?.readOnlyHint !== true) continue;
      if (granted && missingScopes(tool.requiredScopes, granted).length > 0) continue;
      tools.set(name, tool);
    }
    this.tools = tools;
    this.groups = [...new Set([...tools.values()].map((tool) => tool.toolset.name))];
    this.listResult = { tools: listedTools(selection, this.groups.length, tools, codeMode) };
    const names = [...tools.keys()];
    const where = { tools: 'tools/list', discovery: 'search_tools', code: 'search' }[selection.mode];
    this.availableTools =
      names.length === 0
        ? `No tool is available to this request: widen the selection (toolsets, read-only${granted ? ", or the access token's scopes" : ''}).`
        : `Available tools: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more (see ${where})` : ''}.`;
  }

  /** The slice's groups as browse_tools lists them (name, first sentence, tool count), built on first use. */
  get groupList(): readonly ToolGroup[] {
    if (this.#groupList) return this.#groupList;
    const groups = new Map<string, ToolGroup>();
    for (const tool of this.tools.values()) {
      const { name, description } = tool.toolset;
      const group = groups.get(name) ?? { name, ...(description && { description: firstSentence(description, SUMMARY_CHARS) }), tools: 0 };
      group.tools++;
      groups.set(name, group);
    }
    return (this.#groupList = [...groups.values()]);
  }
}

/** What a slice lists of code mode: its tools, for a slice's counts (`CodeModeProvider` in code-mode-provider.ts is the whole). */
export interface CodeModeListing {
  list(groupCount: number, toolCount: number): Tool[];
}

/** What `tools/list` lists in `selection`'s mode: the tools themselves, or the tools of discovery or code mode. */
function listedTools(selection: Selection, groupCount: number, tools: ReadonlyMap<string, CompiledTool>, codeMode: CodeModeListing | undefined) {
  if (selection.mode === 'discovery') return discoveryDescriptors(groupCount, tools.size);
  // The selection reader refuses mode code on a server without code mode.
  if (selection.mode === 'code' && codeMode) return codeMode.list(groupCount, tools.size);
  return [...tools.values()].map((tool) => tool.descriptor);
}

/** `prompts/list`, `resources/list` and `resources/templates/list` for a caller with `granted` scopes (all, when undefined). */
export function servedLists(catalog: ToolCatalog, granted: ReadonlySet<string> | undefined): ServedLists {
  const allowed = (member: { toolset: CompiledToolset }) => !granted || missingScopes(member.toolset.requiredScopes, granted).length === 0;
  // A view is listed to a caller who may call at least one of the tools that show it.
  const viewAllowed = (view: CompiledView) => !granted || view.tools.some((tool) => missingScopes(tool.requiredScopes, granted).length === 0);
  return {
    ...(catalog.prompts.size > 0 && { 'prompts/list': { prompts: [...catalog.prompts.values()].filter(allowed).map((prompt) => prompt.descriptor) } }),
    ...(servesResources(catalog) && {
      'resources/list': {
        resources: [
          ...[...catalog.resources.values()].filter(allowed).map((resource) => resource.descriptor),
          ...[...catalog.toolViews.values()].filter(viewAllowed).map((view) => view.descriptor),
        ],
      },
      'resources/templates/list': { resourceTemplates: catalog.templates.filter(allowed).map((template) => template.descriptor) },
    }),
  };
}
