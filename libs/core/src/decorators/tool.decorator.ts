import { metadataStorage } from '../metadata/metadata-storage';
import { isStandardDecoratorContext } from './standard-decorator-context';
import type { ToolAnnotations, ToolIcon } from '../metadata/tool-metadata';
import type { ToolTaskDeclaration } from '../metadata/tool-task';
import type { ToolViewDeclaration } from '../metadata/tool-view';
import type { ClassType } from '../types/class-type';
import type { ToolArgs, ToolOutput, ToolReturns } from '../types/tool-returns';

export interface ToolOptions<R extends ToolReturns, A extends ClassType | undefined> {
  /** Defaults to the method name in snake_case. Allowed: 1–128 of `A-Z a-z 0-9 _ - .`. */
  name?: string;
  /** A human-friendly display name. */
  title?: string;
  /** What the tool does and when to use it; required, since it is what a model chooses by. */
  description: string;
  /** The argument DTO class; its `@Field`s become the closed `inputSchema`. */
  args?: A;
  /**
   * The arguments as a raw JSON Schema (2020-12) instead of an `args` class: advertised exactly as
   * written (`$schema`, `$defs`, `$ref` kept), validated on every call; the method receives the
   * plain object. An escape hatch: a DTO class gives a typed, checked instance.
   */
  inputSchema?: Record<string, unknown>;
  /** The result class, or `[ResultClass, ToolError]` when the tool can fail in a structured way. */
  returns: R;
  annotations?: ToolAnnotations;
  /**
   * Icons a client may show beside the tool (`tools/list`'s `icons`): each an https URL or a
   * `data:image/…;base64,…` URI, with its `mimeType`, `sizes` (`['48x48']`, `['any']`) and `theme`.
   */
  icons?: readonly ToolIcon[];
  /**
   * Words people use for this tool that its name, title and description do not contain: other
   * names for what it acts on (`refund` for a charge reversal) and for what it does (`cancel`,
   * `reschedule`). Only discovery search reads them; they are not advertised.
   */
  keywords?: readonly string[];
  /**
   * What the tool stands for whatever it is called: the contract target pairs a tool renamed since
   * the snapshot with its old name through it, and reports every change of its arguments and
   * result under the rename. Defaults to `<Toolset class>.<method>`; a generated tool gives the API
   * operation it calls (`GET /pets/{id}`), since its method follows its name. Not advertised.
   */
  origin?: string;
  /**
   * The form classes this tool may ask the user to fill with `context.elicit(message, Form)`. The
   * startup gate checks each (a flat object of string, number, integer, boolean and enum fields)
   * and compiles it once; asking for a form not listed here fails the call, saying to list it.
   */
  elicits?: readonly ClassType[];
  /**
   * What the result's text block carries, beside `structuredContent`: `'json'` (the default, as the
   * specification recommends) is the result serialised; `'message'` is its `message` alone, for a
   * tool whose message says everything a client that shows only text needs (the data stays in
   * `structuredContent`).
   */
  text?: 'json' | 'message';
  /**
   * Runs the tool as an MCP task for clients that support tasks: the call answers at once with a
   * task the client polls, and the tool gets a `TaskContext` (status, progress, `requireInput`,
   * cancellation). `'optional'` serves other clients the blocking result; `'required'` refuses them.
   * Options: `{ support, ttlMs, pollIntervalMs, idempotent }` (docs/long-running-tools.md).
   */
  task?: ToolTaskDeclaration;
  /**
   * An MCP Apps view (`defineView`) the host renders this tool's result in: it gets the tool's
   * arguments and its validated `structuredContent`, and may call tools back. Several tools may
   * share one view. `{ view, visibility: ['app'] }` makes a tool only the view calls. Clients
   * without MCP Apps get the tool and its typed result as always (docs/views.md).
   */
  view?: ToolViewDeclaration;
}

/** The method shape a `@Tool` accepts: `tsc` rejects a return type outside the declared arm(s). */
export type ToolMethod<R extends ToolReturns, A extends ClassType | undefined> = (
  args: ToolArgs<A>,
) => ToolOutput<R> | Promise<ToolOutput<R>>;

/** Declares a tool; the method's return type must be the declared `returns` arm(s) or a Promise of them. */
export function Tool<const R extends ToolReturns, A extends ClassType | undefined = undefined>(
  options: ToolOptions<R, A>,
): <M extends ToolMethod<R, A>>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  return (target, propertyKey) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@Tool ${String(propertyKey.name)}`);
    metadataStorage.addTool({ target: target.constructor as ClassType, methodName: String(propertyKey), options });
  };
}
