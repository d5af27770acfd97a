import 'reflect-metadata';
import { IsInt, Max, Min } from 'class-validator';
import { buildServer, Field, Result, serveHttp, TaskContext, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, modernMeta, resultOf } from '../../src';

class WorkArgs {
  @Field(() => Number)
  @IsInt()
  @Min(0)
  @Max(5_000)
  ms!: number;
}

@Result({ description: 'How long it worked.' })
class Worked extends ToolResult {}

@Toolset({ name: 'work' })
class WorkToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ description: 'Works for a while.', args: WorkArgs, returns: Worked, task: { support: 'optional', pollIntervalMs: 500, inlineMs: 200 } })
  async work({ ms }: WorkArgs): Promise<Worked> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { message: `worked ${ms} ms (${this.task.isTask ? 'as a task' : 'blocking'})` };
  }
}

describe('a task tool with an inline window (task: { inlineMs })', () => {
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'work', version: '1', toolsets: [WorkToolset] }), { port: 0 });
  });
  afterAll(() => handle.close());

  it('answers a 2026-07-28 client with the ordinary result when the task finishes within the window, and with the task otherwise', async () => {
    const send = httpDispatch(`${handle.origin}/mcp`);
    const call = (ms: number) => send({ method: 'tools/call', params: { name: 'work', arguments: { ms }, _meta: modernMeta() } }).then(resultOf);
    const quick = await call(0);
    expect(quick).toMatchObject({ resultType: 'complete', structuredContent: { message: 'worked 0 ms (as a task)' } });
    expect(quick).not.toHaveProperty('taskId');
    const slow = await call(1_000);
    expect(slow).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working' });
  });

  it('is checked at startup: a window as long as the poll interval says to shorten it', () => {
    @Toolset({ name: 'bad' })
    class BadToolset {
      @Tool({ description: 'Bad.', returns: Worked, task: { support: 'optional', pollIntervalMs: 100, inlineMs: 100 } })
      bad(): Worked {
        return { message: '' };
      }
    }
    expect(() => buildServer({ name: 'bad', version: '1', toolsets: [BadToolset] })).toThrow(/tool 'bad'.*waits 100 ms for an inline answer but polls every 100 ms.*Fix: make inlineMs shorter than pollIntervalMs/s);
  });
});
