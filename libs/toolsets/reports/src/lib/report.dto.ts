import { IsIn, IsInt, IsOptional, Length, Max, Min } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';

export class ReportArgs {
  @Field({ description: 'The report’s title.' })
  @Length(1, 100)
  title!: string;

  @Field({ description: 'How many pages to render (about 100 ms each).' })
  @IsInt()
  @Min(1)
  @Max(100)
  pages!: number;
}

/** What the user is asked once the report is rendered. */
export class PublishForm {
  @Field({ description: 'Publish the report?' })
  publish!: boolean;

  @Field({ description: 'Where to publish it.' })
  @IsIn(['email', 'archive'])
  channel!: string;
}

@Result({ description: 'The rendered report, and whether and where it was published.' })
export class ReportResult extends ToolResult {
  @Field({ description: 'The report’s title.' })
  title!: string;

  @Field({ description: 'Pages rendered.' })
  pages!: number;

  @Field({ description: 'Where it was published; absent when it was not.' })
  @IsOptional()
  publishedTo?: string;
}
