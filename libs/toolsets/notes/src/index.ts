export { NotesToolset, NOTES_READ, NOTES_WRITE } from './lib/notes.toolset';
export { InMemoryNotesStore, MAX_NOTES_PER_OWNER, NOTES_STORE, type NotesStore } from './lib/notes-store';
export { AddNoteArgs, DeletedNote, ListNotesArgs, Note, NoteIdArgs, NoteList, NoteResult } from './lib/note.dto';
export { NotesBoardView } from './lib/notes-board.view';
