import type { InjectionToken } from 'tsyringe';
import type { Note } from './note.dto';

/** Where notes are kept, by owner: one owner's notes are never visible to another. */
export interface NotesStore {
  list(owner: string): readonly Note[];
  get(owner: string, id: number): Note | undefined;
  /** Undefined when the owner already holds `MAX_NOTES_PER_OWNER`. */
  add(owner: string, text: string): Note | undefined;
  delete(owner: string, id: number): boolean;
}

export const NOTES_STORE: InjectionToken<NotesStore> = Symbol.for('@toolsets/notes:NotesStore');
export const MAX_NOTES_PER_OWNER = 500;

/** The demo's store: in this process's memory, gone on restart. Register another NOTES_STORE to keep them. */
export class InMemoryNotesStore implements NotesStore {
  readonly #owners = new Map<string, { next: number; notes: Map<number, Note> }>();

  list(owner: string): readonly Note[] {
    return [...(this.#owners.get(owner)?.notes.values() ?? [])];
  }

  get(owner: string, id: number): Note | undefined {
    return this.#owners.get(owner)?.notes.get(id);
  }

  add(owner: string, text: string): Note | undefined {
    let shelf = this.#owners.get(owner);
    if (!shelf) this.#owners.set(owner, (shelf = { next: 1, notes: new Map() }));
    if (shelf.notes.size >= MAX_NOTES_PER_OWNER) return undefined;
    const note = { id: shelf.next++, text, createdAt: new Date().toISOString() };
    shelf.notes.set(note.id, note);
    return note;
  }

  delete(owner: string, id: number): boolean {
    return this.#owners.get(owner)?.notes.delete(id) ?? false;
  }
}
