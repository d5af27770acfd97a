import { IsInt, IsOptional, Max, Min, MinLength } from 'class-validator';
import { Field, RequestContext, Tool, ToolError, ToolResult, Toolset } from '../../src';
import { injectable } from 'tsyringe';

/** Two groups for the selection tests: notes (one read tool, one write tool) and a clock. */
export class Note {
  @Field()
  id!: number;

  @Field()
  text!: string;
}

export class NoteList extends ToolResult {
  @Field(() => [Note])
  notes!: Note[];
}

export class AddNoteArgs {
  @Field({ description: 'The text of the note.' })
  @MinLength(1)
  text!: string;
}

export class ListNotesArgs {
  @Field({ description: 'How many notes at most.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

export class AddedNote extends ToolResult {
  @Field()
  id!: number;

  @Field({ description: 'The caller, from the x-notes-token header.' })
  @IsOptional()
  by?: string;
}

@injectable()
@Toolset({ name: 'notes', description: 'Notes: write them down and read them back.', credentialHeaders: ['x-notes-token'] })
export class NotesToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'List the saved notes, newest first.', args: ListNotesArgs, returns: NoteList, annotations: { readOnlyHint: true } })
  listNotes(args: ListNotesArgs): NoteList {
    return { message: 'Notes.', notes: [{ id: 1, text: 'buy milk' }].slice(0, args.limit ?? 10) };
  }

  @Tool({ description: 'Add a note with some text.', args: AddNoteArgs, returns: [AddedNote, ToolError], annotations: { readOnlyHint: false, destructiveHint: false } })
  addNote(args: AddNoteArgs): AddedNote | ToolError {
    if (args.text === 'fail') return new ToolError('refused', 'This note cannot be saved.');
    const token = this.context.hasCredential('x-notes-token') ? this.context.credential('x-notes-token') : undefined;
    return { message: `Saved note 7: ${args.text}`, id: 7, ...(token && { by: `caller-${token.length}` }) };
  }
}

export class NowResult extends ToolResult {
  @Field()
  iso!: string;
}

@Toolset({ name: 'clock', description: 'The time of day.' })
export class ClockToolset {
  @Tool({ description: 'The current time on the server, in ISO 8601.', returns: NowResult, annotations: { readOnlyHint: true } })
  now(): NowResult {
    return { message: 'The time.', iso: new Date(0).toISOString() };
  }
}

/** A catalog tool named like a discovery tool. */
@Toolset({ name: 'clash', description: 'A tool named search_tools.' })
export class ClashToolset {
  @Tool({ name: 'search_tools', description: 'Search something else entirely.', returns: NowResult })
  search(): NowResult {
    return { message: 'The catalog tool.', iso: 'x' };
  }
}
