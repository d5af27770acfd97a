import type { ClassType } from '../types/class-type';

/** What a completer knows: the other arguments the client has filled in so far, and the toolset it completes for. */
export interface CompletionContext<T = unknown> {
  arguments: Readonly<Record<string, string>>;
  /**
   * The prompt's or template's toolset, resolved for this request as a call's is (its injected
   * services, its `RequestContext` with the caller's credentials): made when first read, so a
   * completer that does not read it costs no instance.
   */
  readonly toolset: T;
}

/** Suggests values for one argument from what the user has typed (`value`), best first. */
export type Completer<T = unknown> = (value: string, context: CompletionContext<T>) => readonly string[] | Promise<readonly string[]>;

export interface CompleterMetadata {
  target: ClassType;
  propertyName: string;
  complete: Completer;
}
