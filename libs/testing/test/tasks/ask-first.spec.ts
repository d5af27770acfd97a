import 'reflect-metadata';
import { buildServer, Field, Result, serveHttp, TaskContext, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, modernMeta, pollUntil, resultOf } from '../../src';

class FileArgs {
  @Field()
  file!: string;
}

class OkForm {
  @Field()
  ok!: boolean;
}

@Result({ description: 'What happened.' })
class Done extends ToolResult {}

let runs = 0;

@Toolset({ name: 'jobs' })
class JobsToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ description: 'Asks first, then archives the file as a task.', args: FileArgs, returns: Done, elicits: [OkForm], task: { support: 'optional', askFirst: true } })
  async archive({ file }: FileArgs): Promise<Done> {
    const answer = await this.task.requireInput(OkForm, `Archive ${file}?`, { key: 'confirm' });
    await this.task.start();
    runs++;
    return { message: `${answer.action === 'accept' && answer.content.ok ? 'Archived' : 'Skipped'} ${file} (${this.task.isTask ? 'as a task' : 'blocking'}).` };
  }
}

const withTasks = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const withoutTasks = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
describe('a task tool that asks first (task: { askFirst: true })', () => {
  let handle: HttpServerHandle;
  let send: ReturnType<typeof httpDispatch>;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'jobs', version: '1', toolsets: [JobsToolset] }), { port: 0 });
    send = httpDispatch(`${handle.origin}/mcp`);
  });
  afterAll(() => handle.close());

  it('asks in the request, becomes a task on the round that has the answers, and the task runs on with them without asking again', async () => {
    const call = (extra: object) => send({ method: 'tools/call', params: { name: 'archive', arguments: { file: 'a.txt' }, ...extra, _meta: withTasks } });
    const first = resultOf(await call({}));
    expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(first).not.toHaveProperty('taskId');
    const second = resultOf(await call({ inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: first['requestState'] }));
    expect(second).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working' });
    expect(second).not.toHaveProperty('requestState');
    const taskId = second['taskId'] as string;
    const ended = await pollUntil(
      async () => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: withTasks } })),
      (task) => task['status'] !== 'working',
      { what: 'the archive task' },
    );
    // Completed, not input_required: the task's run got the answer the call gathered.
    expect(ended).toMatchObject({ status: 'completed', result: { structuredContent: { message: 'Archived a.txt (as a task).' } } });
  });

  it('stays a blocking call for a client without task support: task.start() returns and the call answers', async () => {
    const before = runs;
    const call = (extra: object) => send({ method: 'tools/call', params: { name: 'archive', arguments: { file: 'b.txt' }, ...extra, _meta: withoutTasks } });
    const first = resultOf(await call({}));
    const second = resultOf(await call({ inputResponses: { confirm: { action: 'accept', content: { ok: false } } }, requestState: first['requestState'] }));
    expect(second).toMatchObject({ structuredContent: { message: 'Skipped b.txt (blocking).' } });
    expect(runs).toBe(before + 1);
  });

  it('is checked at startup: askFirst must be a boolean', () => {
    @Toolset({ name: 'bad' })
    class BadToolset {
      @Tool({ description: 'Bad.', returns: Done, task: { support: 'optional', askFirst: 'yes' as unknown as boolean } })
      bad(): Done {
        return { message: '' };
      }
    }
    expect(() => buildServer({ name: 'bad', version: '1', toolsets: [BadToolset] })).toThrow(/tool 'bad'.*askFirst string "yes".*Fix: set `askFirst: true` when the tool asks its questions before it becomes a task/s);
  });
});
