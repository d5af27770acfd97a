import 'reflect-metadata';
import { buildServer, Result, serveHttp, TaskContext, Tool, ToolResult, Toolset, type HttpServerHandle, type Logger } from '@toolsets/core';
import { httpDispatch, modernMeta, pollUntil, resultOf } from '../../src';

@Result({ description: 'What was copied.' })
class Copied extends ToolResult {}

const stopped: string[] = [];

@Toolset({ name: 'files' })
class FilesToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ description: 'Copies slowly; stops by throwing when cancelled, as fetch and streams do.', returns: Copied, task: 'optional' })
  async copy(): Promise<Copied> {
    await new Promise((_resolve, reject) =>
      this.task.signal.addEventListener('abort', () => {
        stopped.push(this.task.taskId!);
        reject(new DOMException('This operation was aborted', 'AbortError'));
      }),
    );
    return { message: 'never' };
  }
}

describe('a cancelled task whose tool stops by throwing', () => {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  const logger: Logger = { info: at('info'), warn: at('warn'), error: at('error') };
  let handle: HttpServerHandle;
  let definition: ReturnType<typeof buildServer>;
  beforeAll(async () => {
    definition = buildServer({ name: 'files', version: '1', toolsets: [FilesToolset], logger });
    handle = await serveHttp(definition, { port: 0 });
  });
  afterAll(() => handle.close());

  it('is cancelled, and the server logs no error for it: the tool did what it was asked', async () => {
    const send = httpDispatch(`${handle.origin}/mcp`);
    const meta = modernMeta();
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'copy', arguments: {}, _meta: meta } }));
    const taskId = created['taskId'] as string;
    resultOf(await send({ method: 'tasks/cancel', params: { taskId, _meta: meta } }));
    await pollUntil(async () => stopped.includes(taskId), (seen) => seen, { what: "the copy tool's abort" });
    // The throw travels through the call after the abort: give it the turn it needs, then read the log.
    const task = await pollUntil(async () => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta } })), (got) => got['status'] !== 'working', { what: 'the task' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(task['status']).toBe('cancelled');
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines).toContainEqual({ level: 'info', message: 'tool stopped after its call was cancelled' });
  });

  it('at shutdown, logs which running tasks it waits for and how long at most', async () => {
    const send = httpDispatch(`${handle.origin}/mcp`);
    const taskId = resultOf(await send({ method: 'tools/call', params: { name: 'copy', arguments: {}, _meta: modernMeta() } }))['taskId'] as string;
    const fields: Record<string, unknown>[] = [];
    const watching: Logger = { ...logger, info: (message, extra) => void (message === 'waiting for running tasks before exit' && fields.push(extra ?? {})) };
    Object.assign(logger, { info: watching.info });
    await definition.tasks!.close(200);
    expect(fields).toEqual([{ tasks: [`${taskId.slice(0, 8)}…`], atMostMs: 200 }]);
  });
});
