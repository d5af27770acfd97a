import { IsOptional } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';

@Result({ description: 'The resolved account id, also stated in the message.' })
export class WhoamiResult extends ToolResult {
  @Field()
  @IsOptional()
  account?: string;
}
