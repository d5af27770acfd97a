import { SelectionError } from '../errors/selection.error';
import { clip } from '../helpers/client-text';

/**
 * `tools`: the selected tools, each listed. `discovery`: four tools that search, browse, describe
 * and call them. `code`: three tools that search the catalog, describe it as TypeScript, and run a
 * program that calls it (served when the server has code mode: `buildServer({ codeMode })`).
 */
export type CatalogMode = 'tools' | 'discovery' | 'code';

/** Which of a server's tools one request (or one stdio connection) sees and may call, and how they are listed. */
export interface Selection {
  /** Toolset (group) names, sorted and without duplicates; undefined: every toolset. */
  readonly toolsets?: readonly string[];
  /** Only tools whose annotations say `readOnlyHint: true`. */
  readonly readonly: boolean;
  readonly mode: CatalogMode;
}

/** A selection as written by a caller: each part as sent, before it is checked. */
export interface SelectionText {
  toolsets?: string;
  readonly?: string;
  mode?: string;
}

const MODES: readonly CatalogMode[] = ['tools', 'discovery', 'code'];
const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['', '0', 'false', 'off', 'no']);

/** A stable key for a selection: equal selections share one cached view. */
export function selectionKey(selection: Selection): string {
  return `${selection.mode}|${selection.readonly ? 'ro' : 'rw'}|${selection.toolsets?.join(',') ?? '*'}`;
}

/**
 * Reads selections against a server's toolset names. Every part may come from two places (the
 * query and a header over HTTP, the command line and the environment over stdio): both narrow,
 * so a gateway's header can restrict what a client's URL asks for but never widen it.
 */
export class SelectionReader {
  readonly #known: ReadonlySet<string>;

  constructor(
    toolsetNames: readonly string[],
    private readonly defaultMode: CatalogMode,
    /** The server serves code mode (`buildServer({ codeMode })`). */
    private readonly servesCode = false,
    /** Groups of toolsets (`defineGroup`) a selection may name for all of their toolsets. */
    private readonly groups: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.#known = new Set(toolsetNames);
  }

  get defaults(): Selection {
    return { readonly: false, mode: this.defaultMode };
  }

  /** The selection `sources` ask for together; throws `SelectionError` saying what to send instead. */
  read(...sources: readonly SelectionText[]): Selection {
    let toolsets: string[] | undefined;
    let readonly = false;
    let mode: CatalogMode | undefined;
    for (const source of sources) {
      if (source.toolsets !== undefined) {
        const names = this.toolsetNames(source.toolsets);
        if (names) toolsets = toolsets ? toolsets.filter((name) => names.includes(name)) : names;
      }
      if (source.readonly !== undefined) readonly = readSwitch(source.readonly) || readonly;
      if (source.mode !== undefined && source.mode.trim() !== '') mode ??= readMode(source.mode, this.servesCode);
    }
    if (toolsets !== undefined && toolsets.length === 0) {
      throw new SelectionError(
        'The two selections of toolsets (the URL and the X-MCP-Toolsets header, or --toolsets and MCP_TOOLSETS) have none in common: select toolsets both allow.',
      );
    }
    return { ...(toolsets && { toolsets: toolsets.sort() }), readonly, mode: mode ?? this.defaultMode };
  }

  private toolsetNames(text: string): string[] | undefined {
    const names = [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))];
    if (names.length === 0) return undefined;
    const unknown = names.filter((name) => !this.#known.has(name) && !this.groups.has(name));
    if (unknown.length > 0) {
      const groups = this.groups.size > 0 ? `; groups of them: ${[...this.groups.keys()].join(', ')}` : '';
      throw new SelectionError(
        `No toolset named ${unknown.slice(0, 5).map((name) => `'${clip(name, 60)}'`).join(', ')}${unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : ''} on this server. Available toolsets: ${[...this.#known].join(', ')}${groups}.`,
      );
    }
    // A group stands for every toolset in it.
    return [...new Set(names.flatMap((name) => this.groups.get(name) ?? [name]))];
  }
}

function readSwitch(text: string): boolean {
  const value = text.trim().toLowerCase();
  if (ON.has(value)) return true;
  if (OFF.has(value)) return false;
  throw new SelectionError(`The read-only switch must be 1 or 0 (true or false), got ${JSON.stringify(clip(text, 40))}.`);
}

function readMode(text: string, servesCode: boolean): CatalogMode {
  const value = text.trim().toLowerCase() as CatalogMode;
  if (value === 'code' && !servesCode) {
    throw new SelectionError("This server does not serve code mode: ask for mode tools or discovery, or have it built with buildServer({ codeMode: codeMode() }) from '@toolsets/code-mode'.");
  }
  if (MODES.includes(value)) return value;
  throw new SelectionError(`The mode must be ${(servesCode ? MODES : MODES.filter((mode) => mode !== 'code')).join(' or ')}, got ${JSON.stringify(clip(text, 40))}.`);
}
