import type { InnerCallAnswer, SandboxHost } from '../../src';

// The built library: the sandbox runs programs on its built worker script.
const { QuickJsSandbox } = require('../../dist') as typeof import('../../src');

/** A host with two namespaces whose calls answer from the arguments, recording what reached it. */
function recordingHost(answers: (namespace: string, tool: string, args: unknown) => InnerCallAnswer | Promise<InnerCallAnswer> = (_n, _t, args) => ({ value: { echoed: args } })) {
  const received: { namespace: string; tool: string; args: unknown }[] = [];
  const host: SandboxHost = {
    namespaces: { github: ['issues_list', 'issues_create'], notes: ['list_notes'] },
    call: async (namespace, tool, args) => {
      received.push({ namespace, tool, args });
      return answers(namespace, tool, args);
    },
  };
  return { host, received };
}

const sandbox = new QuickJsSandbox();
afterAll(() => sandbox.close());

describe('a program in the sandbox', () => {
  it('calls tools through api, keeps only what it needs, logs, and returns a JSON value', async () => {
    const { host, received } = recordingHost((_n, tool, args) => ({ value: tool === 'issues_list' ? [{ number: 1, title: 'a' }, { number: 2, title: 'b' }] : { created: args } }));
    const outcome = await sandbox.run(
      `const issues = await api.github.issues_list({ state: 'open' });
       console.log('found', issues.length, { first: issues[0].number });
       const created = await Promise.all(issues.map((issue) => api.github.issues_create({ title: 'follow-up ' + issue.title })));
       return { titles: created.map((c) => c.created.title) };`,
      host,
    );
    expect(outcome).toMatchObject({ ok: true, value: { titles: ['follow-up a', 'follow-up b'] }, logs: ['found 2 {"first":1}'], calls: 3 });
    expect(received.map((call) => `${call.namespace}.${call.tool}`)).toEqual(['github.issues_list', 'github.issues_create', 'github.issues_create']);
  });

  it('turns a refused inner call into a ToolCallError the program can catch, with its name, message and data', async () => {
    const { host } = recordingHost(() => ({ error: { name: 'InsufficientScope', message: 'add_note needs notes:write', data: { scopes: ['notes:write'] } } }));
    const outcome = await sandbox.run(
      `try { await api.notes.list_notes({}); } catch (error) { return { name: error.name, message: error.message, data: error.data, isToolCallError: error instanceof ToolCallError }; }`,
      host,
    );
    expect(outcome).toMatchObject({ ok: true, value: { name: 'InsufficientScope', message: 'add_note needs notes:write', data: { scopes: ['notes:write'] }, isToolCallError: true } });
  });

  it('reports what the program threw, by name and message, and a syntax error as a SyntaxError', async () => {
    const { host } = recordingHost();
    expect(await sandbox.run(`throw new RangeError('no such page');`, host)).toMatchObject({ ok: false, failure: { kind: 'thrown', name: 'RangeError', message: 'no such page' } });
    expect(await sandbox.run(`return await api.github.nope({});`, host)).toMatchObject({ ok: false, failure: { kind: 'thrown', name: 'TypeError' } });
    expect(await sandbox.run(`return {;`, host)).toMatchObject({ ok: false, failure: { kind: 'thrown', name: 'SyntaxError' } });
  });

  it('answers undefined as null, and keeps nothing of one program for the next', async () => {
    const { host } = recordingHost();
    expect(await sandbox.run(`globalThis.secret = 'from the first program'; Object.prototype.polluted = true;`, host)).toMatchObject({ ok: true, value: null });
    expect(await sandbox.run(`return [typeof globalThis.secret, typeof ({}).polluted];`, host)).toMatchObject({ ok: true, value: ['undefined', 'undefined'] });
  });
});
