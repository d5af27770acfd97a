import 'reflect-metadata';
import { buildServer, RequestContext, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, modernMeta, pollUntil, resultOf } from '../../src';

@Toolset({ name: 'probe' })
class ProbeToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Says, as a task, whether its client can answer a form.', returns: ToolResult, task: 'required' })
  async canAsk(): Promise<ToolResult> {
    return { message: this.context.clientCapabilities?.elicitation ? 'can ask' : 'cannot ask' };
  }
}

describe("a task's RequestContext.clientCapabilities", () => {
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'probe', version: '1', toolsets: [ProbeToolset] }), { port: 0 });
  });
  afterAll(() => handle.close());

  it.each([
    [true, 'can ask'],
    [false, 'cannot ask'],
  ])('is what the request that made the task declared (elicitation %s)', async (elicitation, said) => {
    const send = httpDispatch(`${handle.origin}/mcp`);
    const meta = modernMeta({ elicitation });
    const taskId = resultOf(await send({ method: 'tools/call', params: { name: 'can_ask', arguments: {}, _meta: meta } }))['taskId'] as string;
    const done = await pollUntil(async () => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta } })), (task) => task['status'] !== 'working', { what: 'the task' });
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { message: said } } });
  });
});
