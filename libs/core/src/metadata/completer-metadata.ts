import type { ClassType } from '../types/class-type';

/** What a completer knows: the other arguments the client has filled in so far. */
export interface CompletionContext {
  arguments: Readonly<Record<string, string>>;
}

/** Suggests values for one argument from what the user has typed (`value`), best first. */
export type Completer = (value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>;

export interface CompleterMetadata {
  target: ClassType;
  propertyName: string;
  complete: Completer;
}
