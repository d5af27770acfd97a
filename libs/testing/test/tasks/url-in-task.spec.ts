import 'reflect-metadata';
import { buildServer, RequestContext, Result, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, modernMeta, pollUntil, resultOf } from '../../src';

@Result({ description: 'Whether the payment went through.' })
class Paid extends ToolResult {}

@Toolset({ name: 'shop' })
class ShopToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Takes payment on the payment page, as a task.', returns: Paid, task: 'optional' })
  async checkout(): Promise<Paid> {
    const answer = await this.context.elicitUrl('https://pay.example.com/session/42', 'Pay for your order on the payment page.');
    return { message: answer.action === 'accept' ? 'Paid.' : 'Not paid.' };
  }
}

describe('URL-mode elicitation inside a task', () => {
  let handle: HttpServerHandle;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'shop', version: '1', toolsets: [ShopToolset] }), { port: 0 });
  });
  afterAll(() => handle.close());

  it('is one of the task input requests (mode url); answered with tasks/update, the task completes', async () => {
    const send = httpDispatch(`${handle.origin}/mcp`);
    const meta = modernMeta();
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'checkout', arguments: {}, _meta: meta } }));
    const taskId = created['taskId'] as string;
    const get = async () => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta } }));
    const waiting = await pollUntil(get, (task) => task['status'] === 'input_required', { what: 'the checkout task asking' });
    const [[key, request]] = Object.entries(waiting['inputRequests'] as Record<string, unknown>);
    expect(request).toEqual({ method: 'elicitation/create', params: { mode: 'url', message: 'Pay for your order on the payment page.', url: 'https://pay.example.com/session/42' } });
    resultOf(await send({ method: 'tasks/update', params: { taskId, inputResponses: { [key!]: { action: 'accept' } }, _meta: meta } }));
    const ended = await pollUntil(get, (task) => task['status'] === 'completed', { what: 'the checkout task' });
    expect(ended).toMatchObject({ result: { structuredContent: { message: 'Paid.' } } });
  });
});
