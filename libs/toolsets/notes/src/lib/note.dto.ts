import { IsInt, IsOptional, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Field, Result, ToolResult } from '@toolsets/core';

export class Note {
  @Field({ description: "The note's id, unique among its owner's notes." })
  id!: number;

  @Field()
  text!: string;

  @Field({ description: 'When it was added (ISO 8601).' })
  createdAt!: string;
}

export class ListNotesArgs {
  @Field({ description: 'How many of the newest notes to return (default 20).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class NoteIdArgs {
  @Field({ description: 'The id list_notes or add_note gave.' })
  @IsInt()
  @Min(1)
  id!: number;
}

export class AddNoteArgs {
  @Field({ description: 'The text of the note.' })
  @MinLength(1)
  @MaxLength(2000)
  text!: string;
}

@Result({ description: "The caller's newest notes, newest first, and how many they have." })
export class NoteList extends ToolResult {
  @Field(() => [Note])
  notes!: Note[];

  @Field()
  total!: number;
}

@Result({ description: 'One note.' })
export class NoteResult extends ToolResult {
  @Field(() => Note)
  note!: Note;
}

@Result({ description: 'The id of the note deleted.' })
export class DeletedNote extends ToolResult {
  @Field()
  id!: number;
}
