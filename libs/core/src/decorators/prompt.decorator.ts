import type { ClassType } from '../types/class-type';
import type { ToolArgs } from '../types/tool-returns';
import type { PromptOutput } from '../wire/prompt-message';
import { metadataStorage } from '../metadata/metadata-storage';
import { isStandardDecoratorContext } from './standard-decorator-context';

export interface PromptOptions<A extends ClassType | undefined> {
  /** Defaults to the method name in snake_case. Allowed: 1–128 of `A-Z a-z 0-9 _ - .`. */
  name?: string;
  title?: string;
  /** What the prompt is for; required, since clients list prompts by it. */
  description: string;
  /** The arguments DTO; its `@Field`s (strings) become the prompt's arguments, validated on every get. */
  args?: A;
  /**
   * The form classes this prompt may ask the user with `context.elicit(message, Form)` before it
   * answers (a 2026-07-28 client gets an `input_required` round, a 2025-era one a request), as a tool's `elicits`.
   */
  elicits?: readonly ClassType[];
}

/** The method shape a `@Prompt` accepts: its arguments in, messages out. */
export type PromptMethod<A extends ClassType | undefined> = (args: ToolArgs<A>) => PromptOutput | Promise<PromptOutput>;

/** Declares a prompt served by `prompts/list` and `prompts/get`. */
export function Prompt<A extends ClassType | undefined = undefined>(
  options: PromptOptions<A>,
): <M extends PromptMethod<A>>(target: object, propertyKey: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  return (target, propertyKey) => {
    if (isStandardDecoratorContext(propertyKey)) return metadataStorage.addStandardDecoratorUse(`@Prompt ${String(propertyKey.name)}`);
    metadataStorage.addPrompt({ target: target.constructor as ClassType, methodName: String(propertyKey), options });
  };
}
