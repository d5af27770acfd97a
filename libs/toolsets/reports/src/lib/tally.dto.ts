import { IsInt, Max, Min } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';

export class TallyArgs {
  @Field({ description: 'Add up the whole numbers from 1 to this (about 10 ms each).' })
  @IsInt()
  @Min(1)
  @Max(1000)
  items!: number;
}

@Result({ description: 'The sum, and which worker process computed it.' })
export class TallyResult extends ToolResult {
  @Field({ description: 'How many numbers were added.' })
  items!: number;

  @Field({ description: 'Their sum.' })
  total!: number;

  @Field({ description: 'The process id of the worker that computed it.' })
  worker!: number;
}
