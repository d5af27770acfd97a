import { IsString } from 'class-validator';
import { Field } from '../decorators/field.decorator';
import { Result } from '../decorators/result.decorator';

/**
 * The structured failure arm of a tool (`returns: [XResult, ToolError]`): sent with `isError: true`
 * and `structuredContent` `{ error, detail }`.
 */
@Result({ description: 'The tool could not do what was asked; `detail` says why and what to do next.' })
export class ToolError {
  @Field(() => String, { description: 'A short machine-readable kind, e.g. "not_found" or "invalid_input".' })
  @IsString()
  error!: string;

  @Field(() => String, { description: 'What happened and what to do next.' })
  @IsString()
  detail!: string;

  constructor(error: string, detail: string) {
    this.error = error;
    this.detail = detail;
  }
}
