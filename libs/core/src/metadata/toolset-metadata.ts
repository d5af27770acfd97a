import type { ClassType } from '../types/class-type';
import type { ToolGroup } from './tool-group';
export interface ToolsetOptions {
  /** Defaults to the class name in kebab-case without a `Toolset` suffix (`HelloToolset` → `hello`). */
  name?: string;
  description?: string;
  /**
   * The larger groups this toolset belongs to (`defineGroup({ name, description })`): clients see
   * them in `groups/list` as groups of groups and may select one whole (`?toolsets=<group>`).
   */
  groups?: readonly ToolGroup[];
  /** HTTP headers this toolset reads through `RequestContext.credential(name)`; lower-case names. */
  credentialHeaders?: readonly string[];
  /**
   * The most bytes of JSON a tool's `tools/list` entry may take. Past it, the deepest levels of its
   * output schema are advertised as open values whose description says what was cut, then its
   * input's descriptions are shortened; an input schema itself is never cut (a tool whose arguments
   * alone do not fit is advertised whole, with a startup warning). Arguments and results are still
   * validated against the full schemas. Unset: no limit. Generated API toolsets set it (16 KiB by default).
   */
  schemaBudget?: number;
  /**
   * Set by generators: what the toolset's code is generated from (`openapi.json and
   * openapi.config.json`), so advice about its classes points there rather than at files a
   * regeneration rewrites.
   */
  generatedFrom?: string;
  /**
   * Runs when an app starts serving (`runServer`/`startApp`), not in tests or the contract target:
   * throw to refuse to start, with a message that says what to set (a generated API toolset checks
   * that `<NAME>_BASE_URL` gives an absolute URL).
   */
  checkSettings?: (env: NodeJS.ProcessEnv) => void;
}

export interface ToolsetMetadata {
  target: ClassType;
  options: ToolsetOptions;
  /** Applied as a TC39 standard decorator: nothing about the class can be reflected. */
  standardDecorators?: boolean;
}
