import { LRUCache } from 'lru-cache';
import type { ToolCatalog } from '../compiled/tool-catalog';
import { CatalogSlice, servedLists, type ServedLists } from './catalog-slice';
import type { CodeModeProvider } from './code-mode-provider';
import { selectionKey, SelectionReader, type CatalogMode, type Selection, type SelectionText } from './selection';
import { catalogSizes, type CatalogSizes } from './list-sizes';
import { ToolSearch } from './tool-search';
import { sortedScopes } from '../helpers/scopes';

/** Distinct selections kept at once; the least recently used is dropped past it (a view is cheap to rebuild). */
const MAX_VIEWS = 256;

/** The HTTP names of each selection part: a query parameter and a header. */
export const SELECTION_QUERY = { toolsets: 'toolsets', readonly: 'readonly', mode: 'mode' } as const;
export const SELECTION_HEADERS = { toolsets: 'x-mcp-toolsets', readonly: 'x-mcp-readonly', mode: 'x-mcp-mode' } as const;

/** Every view of one server's catalog, by selection, and the search index they share. */
export class CatalogSlices {
  readonly reader: SelectionReader;
  /** Each group of toolsets (`defineGroup`) holding a toolset with tools, and those toolsets: selectable by its name. */
  readonly larger: ReadonlyMap<string, readonly string[]>;
  readonly #views = new LRUCache<string, CatalogSlice>({ max: MAX_VIEWS });
  /** Prompt and resource lists by the scopes that see them: they do not depend on the selection. */
  readonly #lists = new LRUCache<string, ServedLists>({ max: MAX_VIEWS });
  #search: ToolSearch | undefined;
  #sizes: CatalogSizes | undefined;
  /** The view of a request that selects nothing: the server's default. */
  readonly whole: CatalogSlice;
  /** Every scope some tool, prompt or resource of the catalog needs, sorted (RFC 9728 `scopes_supported`). */
  readonly scopes: readonly string[];
  readonly #scopes: ReadonlySet<string>;

  constructor(
    private readonly catalog: ToolCatalog,
    defaultMode: CatalogMode = 'tools',
    /** Code mode's tools, when the server serves it (`buildServer({ codeMode })`). */
    readonly codeMode?: CodeModeProvider,
  ) {
    const served = catalog.toolsets.filter((toolset) => toolset.tools.length > 0).map((toolset) => toolset.name);
    this.larger = selectableGroups(catalog, new Set(served));
    this.reader = new SelectionReader(served, defaultMode, codeMode !== undefined, this.larger);
    this.scopes = sortedScopes(catalog.toolsets.flatMap((toolset) => [...toolset.requiredScopes, ...toolset.tools.flatMap((tool) => tool.requiredScopes)]));
    this.#scopes = new Set(this.scopes);
    this.whole = this.view(this.reader.defaults);
  }

  /**
   * The view of `selection`, built on first use; with `granted` (a verified token's scopes), only
   * what those scopes allow. Granted scopes the catalog never asks for are ignored, so the views
   * kept are bounded by the catalog's own scopes, not by what callers send.
   */
  view(selection: Selection, granted?: readonly string[]): CatalogSlice {
    const relevant = granted && this.#scopes.size > 0 ? sortedScopes(granted.filter((scope) => this.#scopes.has(scope))) : undefined;
    const key = relevant ? `${selectionKey(selection)}|${relevant.join(' ')}` : selectionKey(selection);
    let view = this.#views.get(key);
    if (!view) {
      view = new CatalogSlice(this.catalog, selection, relevant && new Set(relevant), this.listsFor(relevant), this.codeMode);
      this.#views.set(key, view);
    }
    return view;
  }

  /** The prompt and resource lists for `relevant` scopes (all of them when undefined), built once per scope set. */
  private listsFor(relevant: readonly string[] | undefined): ServedLists {
    const key = relevant ? relevant.join(' ') : '*';
    let lists = this.#lists.get(key);
    if (!lists) {
      lists = servedLists(this.catalog, relevant && new Set(relevant));
      this.#lists.set(key, lists);
    }
    return lists;
  }

  /**
   * The view an HTTP request selects with its query (`?toolsets=a,b&readonly=1&mode=discovery`)
   * and headers (`X-MCP-Toolsets`, `X-MCP-Readonly`, `X-MCP-Mode`). Throws `SelectionError`.
   */
  forHttp(url: string, header: (name: string) => string | null | undefined): CatalogSlice {
    const query = url.indexOf('?');
    const noHeaders = !header(SELECTION_HEADERS.toolsets) && !header(SELECTION_HEADERS.readonly) && !header(SELECTION_HEADERS.mode);
    if (query < 0 && noHeaders) return this.whole;
    const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
    const fromQuery: SelectionText = {
      toolsets: params.get(SELECTION_QUERY.toolsets) ?? undefined,
      readonly: params.get(SELECTION_QUERY.readonly) ?? undefined,
      mode: params.get(SELECTION_QUERY.mode) ?? undefined,
    };
    const fromHeaders: SelectionText = {
      toolsets: header(SELECTION_HEADERS.toolsets) ?? undefined,
      readonly: header(SELECTION_HEADERS.readonly) ?? undefined,
      mode: header(SELECTION_HEADERS.mode) ?? undefined,
    };
    return this.view(this.reader.read(fromQuery, fromHeaders));
  }

  /** The sizes of this server's lists, whole, per group and in discovery mode; computed once. */
  get sizes(): CatalogSizes {
    return (this.#sizes ??= catalogSizes(this));
  }

  /** The search index over the whole catalog, built on the first search. */
  get search(): ToolSearch {
    return (this.#search ??= new ToolSearch(this.catalog.tools.values()));
  }
}

/** Each group of toolsets (`defineGroup`) that holds a toolset with tools, and those toolsets. */
function selectableGroups(catalog: ToolCatalog, served: ReadonlySet<string>): Map<string, readonly string[]> {
  const groups = new Map<string, readonly string[]>();
  for (const group of catalog.groups) {
    const toolsets = group.toolsets.filter((name) => served.has(name));
    if (toolsets.length > 0) groups.set(group.name, toolsets);
  }
  return groups;
}
