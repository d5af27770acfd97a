import { Field, Tool, ToolResult, Toolset } from '../../src';

/** Two groups for the grouping and Server Card tests: notes (two tools, a credential header) and admin (one). */
export class Said extends ToolResult {}

export class NoteArgs {
  @Field()
  text!: string;
}

@Toolset({ name: 'notes', description: 'Keep and find short notes.', credentialHeaders: ['x-notes-key'] })
export class NotesToolset {
  @Tool({ description: 'Add a note.', args: NoteArgs, returns: Said })
  addNote(args: NoteArgs): Said {
    return { message: args.text };
  }

  @Tool({ description: 'List the notes.', returns: Said, annotations: { readOnlyHint: true } })
  listNotes(): Said {
    return { message: 'none' };
  }
}

@Toolset({ name: 'admin', description: 'Administer the note store.' })
export class AdminToolset {
  @Tool({ description: 'Delete every note.', returns: Said, annotations: { destructiveHint: true } })
  wipe(): Said {
    return { message: 'wiped' };
  }
}
