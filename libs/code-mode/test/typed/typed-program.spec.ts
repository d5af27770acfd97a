import 'reflect-metadata';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildServer, Field, Result, Tool, ToolError, ToolResult, Toolset } from '@toolsets/core';
import { catalogDeclarations, CodeMode, ProgramChecker, type DeclaredTool, type InnerCallAnswer, type InnerCallDispatch, type JsonSchema } from '../../src';

// The built library: the sandbox runs programs on its built worker script.
const { QuickJsSandbox } = require('../../dist') as typeof import('../../src');

class ListArgs {
  @Field({ description: 'Which issues.', examples: ['open'] })
  @IsIn(['open', 'closed'])
  state!: string;

  @Field({ description: 'At most this many.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

class Issue {
  @Field({ description: 'Its number.' })
  number!: number;

  @Field()
  title!: string;

  @Field(() => [String])
  labels!: string[];
}

@Result({ description: 'Issues, newest first.' })
class IssueList extends ToolResult {
  @Field(() => [Issue])
  issues!: Issue[];
}

class LabelArgs {
  @Field()
  number!: number;

  @Field()
  label!: string;
}

@Result({ description: 'The labelled issue.' })
class Labelled extends ToolResult {
  @Field(() => Issue)
  issue!: Issue;
}

const store: Issue[] = [
  { number: 3, title: 'Crash on save', labels: [] },
  { number: 2, title: 'Typo in README', labels: ['docs'] },
  { number: 1, title: 'Slow start', labels: [] },
];

@Toolset({ name: 'tracker', description: 'Issues.' })
class TrackerToolset {
  @Tool({ description: 'List issues.', args: ListArgs, returns: IssueList, annotations: { readOnlyHint: true } })
  list_issues({ state, limit }: ListArgs): IssueList {
    const issues = state === 'open' ? store.slice(0, limit ?? 50) : [];
    return { message: `${issues.length} issues.`, issues };
  }

  @Tool({ description: 'Add a label to an issue.', args: LabelArgs, returns: [Labelled, ToolError] })
  add_label({ number, label }: LabelArgs): Labelled | ToolError {
    const issue = store.find((candidate) => candidate.number === number);
    if (!issue) return new ToolError('not_found', `No issue ${number}.`);
    issue.labels.push(label);
    return { message: `Labelled #${number}.`, issue };
  }
}

describe('a typed program: declarations from the advertised schemas, a type check, then the sandbox with real inner calls', () => {
  let client: Client;
  let connection: { close(): Promise<void> };
  let declared: DeclaredTool[];
  let checker: ProgramChecker;
  const sandbox = new QuickJsSandbox();

  beforeAll(async () => {
    // The SDK's own client, in memory, against a server built from the toolset.
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    connection = await buildServer({ name: 'tracker', version: '1.0.0', toolsets: [TrackerToolset] }).connect(serverSide);
    client = new Client({ name: 'code-mode-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(clientSide);
    declared = (await client.listTools()).tools.map((tool) => ({ namespace: 'tracker', name: tool.name, description: tool.description, inputSchema: tool.inputSchema as JsonSchema, outputSchema: tool.outputSchema as JsonSchema }));
    checker = new ProgramChecker(catalogDeclarations(declared).text);
  });
  afterAll(async () => {
    await client.close();
    await connection.close();
    await sandbox.close();
  });

  it('declares one function per tool under api.<toolset>, with argument and result interfaces and JSDoc from the schemas', () => {
    const { text, namespaces } = catalogDeclarations(declared);
    expect(namespaces).toEqual({ tracker: ['list_issues', 'add_label'] });
    expect(text).toContain('declare namespace api {\n  namespace tracker {');
    expect(text).toContain("    /** Which issues. Example: \"open\". */\n      state: 'open' | 'closed';");
    expect(text).toContain('    /** List issues. */\n    function list_issues(args: ListIssuesArgs): Promise<ListIssuesResult>;');
    expect(text).toContain('function add_label(args: AddLabelArgs): Promise<AddLabelResult>;');
    // A result with a ToolError beside it is a union the program narrows ('issue' in result, or result.error).
    expect(text).toMatch(/type AddLabelResult = \{\n[\s\S]*\} \| \{\n[\s\S]*error: string;/);
    expect(text).toContain('      limit?: number;');
  });

  it('runs a program that checks: it labels the open issues without a label, through the same tools/call path', async () => {
    const program = `
const { issues } = await api.tracker.list_issues({ state: 'open' });
const unlabelled = issues.filter((issue) => issue.labels.length === 0);
const results = await Promise.all(unlabelled.map((issue) => api.tracker.add_label({ number: issue.number, label: 'triage' })));
console.log('labelled', results.length);
return results.map((result) => ('issue' in result ? result.issue.number : result.error));`;
    const checked = checker.check(program);
    expect(checked).toMatchObject({ ok: true });
    const host = {
      namespaces: catalogDeclarations(declared).namespaces,
      call: async (_namespace: string, tool: string, args: unknown): Promise<InnerCallAnswer> => {
        const result = await client.callTool({ name: tool, arguments: args as Record<string, unknown> });
        return { value: result.structuredContent };
      },
    };
    const outcome = await sandbox.run((checked as { javascript: string }).javascript, host);
    expect(outcome).toMatchObject({ ok: true, value: [3, 1], logs: ['labelled 2'], calls: 3 });
    expect(store.map((issue) => issue.labels)).toEqual([['triage'], ['docs'], ['triage']]);
  });

  it('refuses a program with type errors, at the line and column of each in the program, before anything runs', () => {
    const checked = checker.check(`const { issues } = await api.tracker.list_issues({ state: 'opened' });\nreturn issues.map((issue) => issue.name);`);
    expect(checked.ok).toBe(false);
    const problems = (checked as { problems: { line: number; column: number; message: string; code: string }[] }).problems;
    expect(problems).toEqual([
      { line: 1, column: 52, code: 'TS2820', message: expect.stringContaining(`Type '"opened"' is not assignable to type '"open" | "closed"'. Did you mean '"open"'?`) },
      // The issue type the tools' results repeat is declared once, by name.
      { line: 2, column: 36, code: 'TS2339', message: expect.stringContaining("Property 'name' does not exist on type 'IssueShape'") },
    ]);
  });

  it('refuses what is not there: an unknown tool, fetch, process', () => {
    const checked = checker.check(`await api.tracker.delete_everything({});\nawait fetch('http://x');\nreturn process.env;`);
    expect(checked.ok).toBe(false);
    expect((checked as { problems: { line: number; code: string }[] }).problems.map((problem) => [problem.line, problem.code])).toEqual([
      [1, 'TS2339'],
      [2, 'TS2304'],
      [3, 'TS2591'],
    ]);
  });

  describe('CodeMode: describe and execute over one view of the catalog', () => {
    const mode = () => new CodeMode(declared, sandbox);
    const dispatch: InnerCallDispatch = async (tool, args) => {
      try {
        // A ToolError is the tool's answer (a value the types include); an error without one is a refusal, thrown in the program.
        const result = await client.callTool({ name: tool.name, arguments: args as Record<string, unknown> });
        const content = result.structuredContent as Record<string, unknown> | undefined;
        if (result.isError && !(content && 'error' in content)) return { error: { name: 'CallRefused', message: (result.content as { text?: string }[])[0]?.text ?? 'refused' } };
        return { value: content };
      } catch (error) {
        return { error: { name: 'CallRefused', message: (error as Error).message } };
      }
    };

    it('describes only the tools asked for, and names what it does not know', () => {
      const { text, unknown } = mode().describe(['tracker.add_label', 'nope']);
      expect(text).toContain('function add_label(');
      expect(text).not.toContain('list_issues');
      expect(unknown).toEqual(['nope']);
      expect(mode().describe(['tracker']).text).toContain('function list_issues(');
    });

    it('answers a type error without running anything, and a program that checks with its value, logs and calls', async () => {
      const before = JSON.stringify(store);
      expect(await mode().execute("await api.tracker.add_label({ number: '2', label: 'x' });", dispatch)).toMatchObject({ ok: false, stage: 'typecheck', problems: [{ line: 1, code: 'TS2322' }] });
      expect(JSON.stringify(store)).toBe(before);
      const done = await mode().execute("const { issues } = await api.tracker.list_issues({ state: 'closed' });\nconsole.log(issues.length);\nreturn issues;", dispatch);
      expect(done).toEqual({ ok: true, value: [], logs: ['0'], logsTruncated: false, calls: 1 });
    });

    it('lets a program catch a refused inner call, and branch on a ToolError result', async () => {
      const execution = await mode().execute(`
const missing = await api.tracker.add_label({ number: 99, label: 'x' });
const kind = 'error' in missing ? missing.error : 'labelled';
try {
  await api.tracker.list_issues({ state: 'open', limit: 500 });
  return [kind, 'not refused'];
} catch (error) {
  return [kind, error instanceof ToolCallError ? error.message : 'other'];
}`, dispatch);
      expect(execution).toMatchObject({ ok: true, value: ['not_found', expect.stringMatching(/limit/)], calls: 2 });
    });
  });
});
