import { defineView, viewBundle } from '@toolsets/core';

/**
 * The notes-board view: views/notes-board, built by this library's build target into
 * dist/views/notes-board.html. Link it to a tool with `@Tool({ view: NotesBoardView })`.
 */
export const NotesBoardView = defineView({
  uri: 'ui://notes/notes-board',
  description: "The caller's notes as a board, with a box to add one.",
  bundle: viewBundle(__dirname, 'notes-board'),
  prefersBorder: true,
  // The origins the view reaches, if any (the host blocks all others): csp: { connectDomains: ['https://api.example.com'] },
});
