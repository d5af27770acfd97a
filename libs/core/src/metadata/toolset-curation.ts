import type { ClassType } from '../types/class-type';
import type { ToolAnnotations } from './tool-metadata';

/** The names of `T`'s methods: what a curation names its tools by, so a misspelt one fails to compile. */
export type MethodName<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

/** A method's arguments object (its first parameter), or never for a method without one. */
export type ArgumentsOf<M> = M extends (args: infer A, ...rest: never[]) => unknown ? (unknown extends A ? never : NonNullable<A>) : never;

/**
 * How an app serves one argument of a shared toolset's tool. `value` hides the argument and always
 * passes that value; `default` fills it in when the caller leaves it out (and makes it optional);
 * `name` is what the model sees it as; `description` says it anew; `enum`, `pattern` and the
 * bounds narrow it (never widen); `examples` are advertised.
 */
export interface ArgumentCuration<V = unknown> {
  /** Hide an optional argument and send nothing for it (the tool's own default applies). Stands alone. */
  omit?: true;
  value?: V;
  default?: V;
  name?: string;
  description?: string;
  enum?: readonly V[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  examples?: readonly V[];
}

/** How an app serves one tool of a shared toolset: another name, title, description, hints, and its arguments. */
export interface ToolCuration<A = never> {
  name?: string;
  title?: string;
  description?: string;
  /** Behaviour hints over the tool's own (`openWorldHint: false` behind a gateway). */
  annotations?: Omit<ToolAnnotations, 'title'>;
  arguments?: [A] extends [never] ? never : { [P in keyof A & string]?: ArgumentCuration<A[P]> };
}

/**
 * An app's adaptation of a toolset it serves from a shared library, without forking it: typed
 * against the class's methods and their arguments.
 */
export interface ToolsetCuration<T> {
  /** Put before every tool name the app serves from this toolset (`gh_` makes `list_issues` `gh_list_issues`). */
  prefix?: string;
  /** Tools (by method name) the app does not serve. */
  hide?: readonly MethodName<T>[];
  /** Per tool, by method name. */
  tools?: { [K in MethodName<T>]?: ToolCuration<ArgumentsOf<T[K]>> };
}

/** A toolset class as an app serves it: `curate(GitHubToolset, { prefix: 'gh_', hide: ['deleteRepo'] })`. */
export class CuratedToolset {
  constructor(
    readonly cls: ClassType,
    /** Checked against the class by the startup gate (typed by `curate()` for callers in TypeScript). */
    readonly curation: ToolsetCuration<unknown>,
  ) {}
}

/**
 * Serves a toolset from a shared library adapted to this app: tools renamed or prefixed, hidden,
 * re-described, their arguments hidden behind constants, defaulted, renamed, narrowed. The
 * library's own contract is untouched; the startup gate checks the curation against the toolset
 * (a name that is no tool, a constant its argument refuses) and the app's contract records it.
 *
 * ```ts
 * buildServer({ name: 'support', version: '1.0.0', toolsets: [curate(IssuesToolset, { prefix: 'tickets_', hide: ['deleteIssue'] })] });
 * ```
 */
export function curate<T>(cls: ClassType<T>, curation: ToolsetCuration<T>): CuratedToolset {
  return new CuratedToolset(cls, curation as unknown as ToolsetCuration<unknown>);
}
