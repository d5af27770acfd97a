import { inject, Lifecycle, registry } from 'tsyringe';
import { AuthContext, RequireScopes, Tool, ToolError, Toolset } from '@toolsets/core';
import { AddNoteArgs, DeletedNote, ListNotesArgs, NoteIdArgs, NoteList, NoteResult } from './note.dto';
import { InMemoryNotesStore, MAX_NOTES_PER_OWNER, NOTES_STORE, type NotesStore } from './notes-store';
import { NotesBoardView } from './notes-board.view';

export const NOTES_READ = 'notes:read';
export const NOTES_WRITE = 'notes:write';

/**
 * Notes kept per caller: over HTTP with token checks on, the owner is the token's issuer and
 * subject, so one user never sees another's notes; over stdio (and on a mount that checks no
 * token) every caller is the one local owner.
 */
@Toolset({ description: "The caller's own notes: list, read, add and delete them." })
// The default store; register another NOTES_STORE in the app's container to keep notes elsewhere.
@registry([{ token: NOTES_STORE, useClass: InMemoryNotesStore, options: { lifecycle: Lifecycle.Singleton } }])
export class NotesToolset {
  constructor(
    private readonly auth: AuthContext,
    @inject(NOTES_STORE) private readonly store: NotesStore,
  ) {}

  @Tool({
    view: NotesBoardView,
    description: "List the caller's newest notes, newest first.",
    args: ListNotesArgs,
    returns: [NoteList, ToolError],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  @RequireScopes(NOTES_READ)
  listNotes(args: ListNotesArgs): NoteList | ToolError {
    const owner = this.owner();
    if (owner instanceof ToolError) return owner;
    const all = this.store.list(owner);
    const notes = all.slice(-(args.limit ?? 20)).reverse();
    return { message: `${notes.length} of ${all.length} note(s), newest first.`, notes, total: all.length };
  }

  @Tool({
    description: 'Read one of the caller\'s notes by id. Fails with not_found for an id the caller does not have.',
    args: NoteIdArgs,
    returns: [NoteResult, ToolError],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  @RequireScopes(NOTES_READ)
  getNote(args: NoteIdArgs): NoteResult | ToolError {
    const owner = this.owner();
    if (owner instanceof ToolError) return owner;
    const note = this.store.get(owner, args.id);
    if (!note) return notFound(args.id);
    return { message: `Note ${note.id}.`, note };
  }

  @Tool({
    view: NotesBoardView,
    description: 'Add a note for the caller; returns it with its id.',
    args: AddNoteArgs,
    returns: [NoteResult, ToolError],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  })
  @RequireScopes(NOTES_WRITE)
  addNote(args: AddNoteArgs): NoteResult | ToolError {
    const owner = this.owner();
    if (owner instanceof ToolError) return owner;
    const note = this.store.add(owner, args.text);
    if (!note) return new ToolError('too_many_notes', `The caller already has ${MAX_NOTES_PER_OWNER} notes: delete some first.`);
    return { message: `Added note ${note.id}.`, note };
  }

  @Tool({
    description: "Delete one of the caller's notes by id. Fails with not_found for an id the caller does not have.",
    args: NoteIdArgs,
    returns: [DeletedNote, ToolError],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  })
  @RequireScopes(NOTES_WRITE)
  deleteNote(args: NoteIdArgs): DeletedNote | ToolError {
    const owner = this.owner();
    if (owner instanceof ToolError) return owner;
    if (!this.store.delete(owner, args.id)) return notFound(args.id);
    return { message: `Deleted note ${args.id}.`, id: args.id };
  }

  /** Whose notes: the verified issuer and subject, or the one local owner where no token is checked. */
  private owner(): string | ToolError {
    if (!this.auth.authenticated) return 'local';
    if (!this.auth.subject) return new ToolError('no_subject', 'The access token names no subject (sub), so there is no one to keep notes for.');
    return `${String(this.auth.claims['iss'])} ${this.auth.subject}`;
  }
}

function notFound(id: number): ToolError {
  return new ToolError('not_found', `No note ${id} among the caller's notes: list_notes shows their ids.`);
}
