import { type OperationFilter } from './collect-operations';
import { type ArgumentCuration } from './curate-argument';

/** What the generator reads besides the document: kept in the library as `openapi.config.json`. */
export interface OpenApiConfig extends OperationFilter {
  /** The MCP-side credential header; its value goes upstream as the document's security scheme says. */
  credentialHeader?: string;
  /** Bytes of JSON a tool's `tools/list` entry may take (see `@Toolset({ schemaBudget })`). */
  schemaBudget?: number;
  /** `tag`: one toolset class per tag (an operation's first tag), each a group a client can select. */
  groupBy?: 'tag';
  /**
   * Headers sent upstream on every request (an API version the operations expect): a parameter of
   * that name is no longer an argument.
   */
  headers?: Record<string, string>;
  /**
   * Per tool (by operationId or generated name): another name, title or description, more search
   * keywords, its behaviour hints, the OAuth scopes a caller's token needs for it, or left out. An
   * entry that names no operation of the document stops the generator (renamed or removed upstream).
   */
  tools?: Record<string, ToolCuration>;
  /**
   * Argument entries written once for every tool that has an argument of that name (by its name in
   * the document): `"exclude_fields": { "value": "_links" }`, `"list_id": { "name": "audience_id" }`.
   * A tag's entry (`tags`) is over these, and a tool's own entry over both. One that no included
   * operation takes stops the generator.
   */
  arguments?: Record<string, ArgumentCuration>;
  /**
   * Answer fields to keep (`fields` paths) for every tool whose answer has all of them: resources
   * shaped alike cut alike. A tag's list (`tags`) is over this one, and a tool's own `fields` over both.
   */
  fields?: readonly string[];
  /** Per tag of the document: argument entries and a `fields` list for every operation of the tag (its first tag over its others). */
  tags?: Record<string, { arguments?: Record<string, ArgumentCuration>; fields?: readonly string[] }>;
  /**
   * Every tool's JSON answers are lenient: one that does not match the document is passed on as
   * `unchecked`, with a `note` and a warning in the log, instead of failing (a tool's own `lenient`
   * overrides this). Strict is the default: a document that lies is a bug to fix upstream.
   */
  lenient?: boolean;
  /**
   * Modules of your own under `src/` (composite tools written beside the generated ones, such as
   * `"./pet-workflows"`) that the generated `src/index.ts` exports too.
   */
  exports?: readonly string[];
}

/** One tool's curation in `openapi.config.json`. */
export interface ToolCuration {
  name?: string;
  title?: string;
  description?: string;
  keywords?: readonly string[];
  exclude?: boolean;
  headers?: Record<string, string>;
  /** Behaviour hints, over the ones the HTTP method gives (`openWorldHint: false` for an internal API). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /** OAuth scopes the caller's access token must hold for this tool (`@RequireScopes`). */
  scopes?: readonly string[];
  /**
   * The fields of the answer's JSON body to keep, by path (`number`, `user.login`, `labels.name`;
   * arrays are walked through): the result's `data` is a smaller class of just these, advertised
   * and sent, for answers whose size is the problem.
   */
  fields?: readonly string[];
  /** The group (toolset) this tool joins when the library is grouped by tag, over its first tag. */
  group?: string;
  /** This tool's answers are lenient (or strict, with `false`), over the library's `lenient`. */
  lenient?: boolean;
  /** Per argument: a path, query or header parameter, or a JSON body's top-level field, by its name in the document. */
  arguments?: Record<string, ArgumentCuration>;
}
