import { IsString } from 'class-validator';
import { Field } from '../decorators/field.decorator';

/**
 * Base class of every successful tool result. `message` is the human-readable answer a model reads
 * first; subclasses declare the tool's data keys with `@Field`.
 */
export abstract class ToolResult {
  @Field(() => String, { description: 'The answer in plain words, for the model to read first.' })
  @IsString()
  message!: string;
}
