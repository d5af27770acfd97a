import 'reflect-metadata';
import { buildServer, serveHttp, type HttpServerHandle, type Logger } from '@toolsets/core';
import { connectToolset, startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { NotesToolset, NOTES_READ, NOTES_WRITE } from '../src';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('NotesToolset where no token is checked (stdio, in memory)', () => {
  it('keeps one local owner: add, list newest first, get, delete', async () => {
    const toolset = await connectToolset(NotesToolset);
    expect((await toolset.call('add_note', { text: 'first' })).structuredContent).toMatchObject({ message: 'Added note 1.', note: { id: 1, text: 'first' } });
    await toolset.call('add_note', { text: 'second' });
    const listed = (await toolset.call('list_notes', {})).structuredContent as { notes: { text: string }[]; total: number };
    expect(listed.notes.map((note) => note.text)).toEqual(['second', 'first']);
    expect(listed.total).toBe(2);
    expect((await toolset.call('get_note', { id: 1 })).structuredContent).toMatchObject({ note: { id: 1, text: 'first' } });
    expect((await toolset.call('delete_note', { id: 1 })).structuredContent).toEqual({ message: 'Deleted note 1.', id: 1 });
    const gone = await toolset.call('get_note', { id: 1 });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toEqual({ error: 'not_found', detail: "No note 1 among the caller's notes: list_notes shows their ids." });
    await toolset.close();
  });

  it('refuses an empty note with the field named', async () => {
    const toolset = await connectToolset(NotesToolset);
    const result = await toolset.call('add_note', { text: '' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('text');
    await toolset.close();
  });
});

describe('the notes board view', () => {
  it.each(['modern', 'legacy'] as const)('is linked from list_notes and add_note and served as one MCP Apps page (%s era)', async (era) => {
    const toolset = await connectToolset(NotesToolset, { era });
    const view = await toolset.readView('list_notes');
    expect(view).toMatchObject({ uri: 'ui://notes/notes-board', mimeType: 'text/html;profile=mcp-app', ui: { prefersBorder: true } });
    // The built bundle: the page, its App bridge and script inlined (nothing to fetch in a sandboxed frame).
    expect(view.html).toMatch(/^<!doctype html>/i);
    expect(view.html).toContain('<ul id="notes">');
    expect(view.html).not.toMatch(/<script[^>]+src=/);
    expect(view.html).toContain('ui/initialize');
    expect((await toolset.readView('add_note')).uri).toBe(view.uri);
    await expect(toolset.readView('get_note')).rejects.toThrow("The tool 'get_note' has no view");
    await toolset.close();
  });
});

describe('NotesToolset behind token checks', () => {
  let issuer: TestIssuer;
  let http: HttpServerHandle;
  let url: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    http = await serveHttp(buildServer({ name: 'notes', version: '1.0.0', toolsets: [NotesToolset], logger: quiet }), { port: 0, drainTimeoutMs: 300, auth: { issuer: issuer.issuer }, logger: quiet });
    url = http.mounts[0]!.url;
    issuer.audience = url;
  });
  afterAll(async () => {
    await http?.close();
    await issuer?.close();
  });

  async function call(token: string, name: string, args: object): Promise<{ status: number; result?: { structuredContent?: Record<string, unknown>; isError?: boolean } }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    const text = await response.text();
    if (response.status !== 200) return { status: response.status };
    return { status: 200, result: JSON.parse(text.replace(/^event: message\ndata: /, '').trim()).result };
  }

  it('lists only the tools the scopes allow', async () => {
    const list = async (scopes: string[]) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${await issuer.mint({ scopes })}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      const message = JSON.parse((await response.text()).replace(/^event: message\ndata: /, '').trim());
      return (message.result.tools as { name: string }[]).map((tool) => tool.name);
    };
    expect(await list([NOTES_READ])).toEqual(['list_notes', 'get_note']);
    expect(await list([NOTES_WRITE])).toEqual(['add_note', 'delete_note']);
    expect(await list([])).toEqual([]);
  });

  it('serves the board to a caller who may call one of its tools, and to no one else', async () => {
    const read = async (scopes: string[]) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${await issuer.mint({ scopes })}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://notes/notes-board' } }),
      });
      const message = JSON.parse((await response.text()).replace(/^event: message\ndata: /, '').trim());
      return message.result ? `${message.result.contents[0].mimeType}` : `error ${message.error.code}: ${message.error.message}`;
    };
    expect(await read([NOTES_READ])).toBe('text/html;profile=mcp-app');
    expect(await read([NOTES_WRITE])).toBe('text/html;profile=mcp-app');
    expect(await read([])).toBe(
      "error -32602: The access token lacks a scope the view 'ui://notes/notes-board' needs: any one of notes:read (as for 'list_notes'); or notes:write (as for 'add_note') would do. Sign in again asking for one of them.",
    );
  });

  it('keeps each subject to its own notes: 1,000 calls from 100 subjects with mixed scopes, 0 notes seen across subjects', async () => {
    const grants = [[NOTES_READ, NOTES_WRITE], [NOTES_READ], [NOTES_WRITE]];
    const subjects = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const scopes = grants[i % 3]!;
        return { name: `subject-${i}`, scopes, token: await issuer.mint({ subject: `subject-${i}`, scopes }) };
      }),
    );
    let calls = 0;
    let refused = 0;
    let crossSubject = 0;
    let seen = 0;
    // Ten rounds of 100 concurrent calls: each subject adds, lists, reads note 1 or deletes, as its scopes allow or not.
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        subjects.map(async (subject, i) => {
          const kind = (round + i) % 4;
          const [name, args] = kind === 0 || kind === 1 ? ['add_note', { text: `${subject.name} note ${round}` }] : kind === 2 ? ['list_notes', { limit: 100 }] : ['get_note', { id: 1 }];
          const answer = await call(subject.token, name, args);
          calls++;
          const needs = name === 'add_note' ? NOTES_WRITE : NOTES_READ;
          expect(answer.status).toBe(subject.scopes.includes(needs) ? 200 : 403);
          if (answer.status === 403) return void refused++;
          const content = answer.result!.structuredContent!;
          const texts = name === 'list_notes' ? (content['notes'] as { text: string }[]).map((note) => note.text) : content['note'] ? [(content['note'] as { text: string }).text] : [];
          seen += texts.length;
          crossSubject += texts.filter((text) => !text.startsWith(`${subject.name} `)).length;
        }),
      );
    }
    expect(calls).toBe(1000);
    expect(refused).toBeGreaterThan(200);
    expect(seen).toBeGreaterThan(300);
    expect(crossSubject).toBe(0);
    // A shared CI machine runs this alongside other suites: 1,000 calls take seconds there.
  }, 60_000);

  it("answers not_found for another subject's note id, never its text", async () => {
    const alice = await issuer.mint({ subject: 'alice-x', scopes: [NOTES_READ, NOTES_WRITE] });
    const bob = await issuer.mint({ subject: 'bob-x', scopes: [NOTES_READ, NOTES_WRITE] });
    const added = await call(alice, 'add_note', { text: 'alice secret' });
    const id = (added.result!.structuredContent!['note'] as { id: number }).id;
    const peek = await call(bob, 'get_note', { id });
    expect(peek.result!.structuredContent).toEqual({ error: 'not_found', detail: `No note ${id} among the caller's notes: list_notes shows their ids.` });
    expect((await call(bob, 'delete_note', { id })).result!.isError).toBe(true);
    expect((await call(alice, 'get_note', { id })).result!.structuredContent).toMatchObject({ note: { text: 'alice secret' } });
  });
});
