import { App } from '@modelcontextprotocol/ext-apps';
// Types only: the view is typed by the tools' result DTOs, and none of the server code is bundled.
import type { ToolError } from '@toolsets/core';
import type { NoteList, NoteResult } from '../../src/lib/note.dto';

type Failure = Pick<ToolError, 'error' | 'detail'>;
type CallResult = { structuredContent?: unknown; isError?: boolean };

const summary = document.getElementById('summary')!;
const list = document.getElementById('notes')!;
const addButton = document.getElementById('add-button') as HTMLButtonElement;
const input = document.getElementById('text') as HTMLInputElement;
const status = document.getElementById('status')!;

const app = new App({ name: 'notes-board', version: '0.1.0' });

// The result of the tool the host called (list_notes or add_note: both show this view), as the
// server sent it: already validated against the tool's output schema.
app.ontoolresult = (result) => {
  if (result.isError || (result.structuredContent as Partial<NoteList> | undefined)?.notes) return showList(result);
  setStatus((result.structuredContent as NoteResult).message);
  void refresh();
};

// No <form>: hosts sandbox views, and a sandbox without allow-forms blocks form submission.
addButton.addEventListener('click', () => void addNote(input.value.trim()));
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter') void addNote(input.value.trim());
});

/** Adds the note through the host (`tools/call` from the view), then lists the notes again. */
async function addNote(text: string): Promise<void> {
  if (text === '') return;
  setStatus('Adding…');
  try {
    const added = (await app.callServerTool({ name: 'add_note', arguments: { text } })) as CallResult;
    if (added.isError) return setStatus(failureText(added), true);
    const note = (added.structuredContent as NoteResult).note;
    input.value = '';
    setStatus(`Added note ${note.id}.`);
    await refresh();
  } catch (error) {
    // Refused before the tool ran: out of the token's scopes, or the host said no.
    setStatus(`Refused: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

async function refresh(): Promise<void> {
  showList((await app.callServerTool({ name: 'list_notes', arguments: {} })) as CallResult);
}

function showList(result: CallResult): void {
  if (result.isError || !result.structuredContent) return setStatus(failureText(result), true);
  const notes = result.structuredContent as NoteList;
  summary.textContent = notes.message;
  list.replaceChildren(
    ...notes.notes.map((note) => {
      const item = document.createElement('li');
      item.dataset['id'] = String(note.id);
      const when = document.createElement('time');
      when.dateTime = note.createdAt;
      when.textContent = new Date(note.createdAt).toLocaleString();
      item.append(note.text, when);
      return item;
    }),
  );
}

function failureText(result: CallResult): string {
  const failure = result.structuredContent as Failure | undefined;
  return failure ? `${failure.error}: ${failure.detail}` : 'The tool failed.';
}

function setStatus(text: string, isError = false): void {
  status.textContent = text;
  status.className = isError ? 'error' : '';
}

void app.connect();
