import { IsInt, IsOptional, Length, Max, Min } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';

export class TallyArgs {
  @Field({ description: 'Add up the whole numbers from 1 to this (about 10 ms each).' })
  @IsInt()
  @Min(1)
  @Max(1000)
  items!: number;

  @Field({ description: 'A name to tell this sum apart from others, returned with it.' })
  @IsOptional()
  @Length(1, 100)
  label?: string;
}

@Result({ description: 'The sum, and which worker process computed it.' })
export class TallyResult extends ToolResult {
  @Field({ description: 'How many numbers were added.' })
  items!: number;

  @Field({ description: 'Their sum.' })
  total!: number;

  @Field({ description: 'The label the call gave, if any.' })
  @IsOptional()
  label?: string;

  @Field({ description: 'The process id of the worker that computed it.' })
  worker!: number;
}
