import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import { buildServer, Field, serveHttp, TaskContext, Tool, ToolError, ToolResult, Toolset, type ClassType, type HttpServerHandle } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { httpDispatch, modernMeta, pollUntil, recordingLogger, resultOf, type RawDispatch } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import { readUpstream } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

// An upstream written with toolsets, served over HTTP: a 2026-07-28 server whose task tools run
// with the tasks extension (server-directed). `build` reports each step, asks whether to ship, and
// answers; `hang` runs until it is cancelled.
class BuildArgs {
  @Field({ description: 'How many steps to run.' })
  steps!: number;
}

class ShipForm {
  @Field({ description: 'Ship the build?' })
  ship!: boolean;
}

class Built extends ToolResult {
  @Field({ description: 'Steps run.' })
  steps!: number;

  @Field({ description: 'Whether it shipped.' })
  shipped!: boolean;
}

class TargetForm {
  @Field({ description: 'Where to deploy.' })
  target!: string;
}

const stopped: string[] = [];

@Toolset({ name: 'jobs', description: 'Long-running jobs.' })
class JobsToolset {
  constructor(private readonly task: TaskContext) {}

  @Tool({ description: 'Builds step by step, then asks whether to ship.', args: BuildArgs, returns: [Built, ToolError], elicits: [ShipForm], task: { support: 'required', pollIntervalMs: 100 } })
  async build({ steps }: BuildArgs): Promise<Built | ToolError> {
    for (let step = 1; step <= steps; step++) {
      await this.task.status(`building step ${step} of ${steps}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const answer = await this.task.requireInput(ShipForm, `Ship the ${steps}-step build?`);
    if (answer.action !== 'accept') return new ToolError('not_shipped', `The user chose to ${answer.action}.`);
    return { message: `Built ${steps} steps.`, steps, shipped: answer.content.ship };
  }

  @Tool({ description: 'Asks which target first, then builds it as a task.', returns: [Built, ToolError], elicits: [TargetForm], task: { support: 'required', askFirst: true, pollIntervalMs: 100 } })
  async deploy(): Promise<Built | ToolError> {
    const answer = await this.task.requireInput(TargetForm, 'Deploy to which target?', { key: 'target' });
    await this.task.start();
    if (answer.action !== 'accept') return new ToolError('not_deployed', `The user chose to ${answer.action}.`);
    await this.task.status(`deploying to ${answer.content.target}`);
    return { message: `Deployed to ${answer.content.target} as ${this.task.isTask ? 'a task' : 'a blocking call'}.`, steps: 1, shipped: true };
  }

  @Tool({ description: 'Runs until it is cancelled.', returns: [Built, ToolError], task: { support: 'required', pollIntervalMs: 100 } })
  async hang(): Promise<Built> {
    await this.task.status('hanging');
    await new Promise<void>((resolve) => this.task.signal.addEventListener('abort', () => resolve()));
    stopped.push(this.task.taskId!);
    return { message: 'Stopped.', steps: 0, shipped: false };
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: (message: string, fields?: unknown) => console.error(message, fields) };

/** A 2026-07-28 caller that declared the tasks extension and answers forms. */
const meta = () => modernMeta({ elicitation: true });

describe("a 2026-07-28 upstream's task tools, relayed as tasks of the caller's", () => {
  const logger = recordingLogger();
  let upstream: HttpServerHandle;
  let app: HttpServerHandle;
  let served: ClassType;
  let send: RawDispatch;
  beforeAll(async () => {
    upstream = await serveHttp(buildServer({ name: 'jobs', version: '1', toolsets: [JobsToolset], logger: quiet }), { port: 0, logger: quiet });
    const source = { url: upstream.mounts[0]!.url };
    const snapshot = await readUpstream({ source });
    expect(snapshot.era).toBe('modern');
    expect(Object.fromEntries(snapshot.tools.map((tool) => [tool.name, tool.execution?.taskSupport]))).toEqual({ build: 'required', deploy: 'required', hang: 'required' });
    const generated = generateMcpToolset('relay', snapshot, { name: 'relay', source });
    served = (loadGeneratedSources(generated.files) as Record<string, ClassType>)[generated.className]!;
    app = await serveHttp(buildServer({ name: 'app', version: '1', toolsets: [served], logger }), { port: 0, logger: quiet });
    send = httpDispatch(app.mounts[0]!.url);
  });
  afterAll(async () => {
    await app?.close();
    await closeUpstreams();
    await upstream?.close();
  });

  const taskOf = async (taskId: string) => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta() } }));

  it("shows the upstream's steps, asks its question in the caller's task, and completes with its result, checked (2026-07-28 caller)", async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'build', arguments: { steps: 3 }, _meta: meta() } }));
    expect(created['resultType']).toBe('task');
    const taskId = created['taskId'] as string;
    const seen = new Set<string>();
    const asking = await pollUntil(
      () => taskOf(taskId),
      (task) => {
        if (typeof task['statusMessage'] === 'string') seen.add(task['statusMessage']);
        return task['status'] !== 'working';
      },
      { what: 'the task waiting for an answer', everyMs: 50 },
    );
    expect(asking['status']).toBe('input_required');
    expect([...seen].some((message) => /^building step \d of 3$/.test(message))).toBe(true);
    const [key, question] = Object.entries(asking['inputRequests'] as Record<string, { method: string; params: { message: string } }>)[0]!;
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Ship the 3-step build?' } });

    resultOf(await send({ method: 'tasks/update', params: { taskId, inputResponses: { [key]: { action: 'accept', content: { ship: true } } }, _meta: meta() } }));
    const done = await pollUntil(() => taskOf(taskId), (task) => task['status'] === 'completed' || task['status'] === 'failed', { what: 'the task', everyMs: 50 });
    expect(done['result']).toMatchObject({ structuredContent: { data: { message: 'Built 3 steps.', steps: 3, shipped: true } } });
  });

  it('passes on what the upstream asks before it makes its task, then follows the task it makes with the answer', async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'deploy', arguments: {}, _meta: meta() } }));
    const taskId = created['taskId'] as string;
    const asking = await pollUntil(() => taskOf(taskId), (task) => task['status'] !== 'working', { what: 'the question asked before the upstream task', everyMs: 50 });
    console.log('ASKING', JSON.stringify(asking));
    expect(asking['status']).toBe('input_required');
    const [key, question] = Object.entries(asking['inputRequests'] as Record<string, { params: { message: string } }>)[0]!;
    expect(question.params.message).toBe('Deploy to which target?');
    resultOf(await send({ method: 'tasks/update', params: { taskId, inputResponses: { [key]: { action: 'accept', content: { target: 'staging' } } }, _meta: meta() } }));
    const done = await pollUntil(() => taskOf(taskId), (task) => task['status'] === 'completed' || task['status'] === 'failed', { what: 'the task', everyMs: 50 });
    // The upstream ran it as a task, with the answer given before it started.
    expect(done['result']).toMatchObject({ structuredContent: { data: { message: 'Deployed to staging as a task.' } } });
  });

  it("cancels the upstream's task when the caller cancels its own", async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'hang', arguments: {}, _meta: meta() } }));
    const taskId = created['taskId'] as string;
    await pollUntil(() => taskOf(taskId), (task) => task['statusMessage'] === 'hanging', { what: "the upstream's status", everyMs: 50 });
    const before = stopped.length;
    resultOf(await send({ method: 'tasks/cancel', params: { taskId, _meta: meta() } }));
    // The upstream's own tool saw its task cancelled.
    await pollUntil(async () => stopped.length, (count) => count > before, { what: "the upstream tool's cancellation" });
    expect((await taskOf(taskId))['status']).toBe('cancelled');
  });

  it("asks a 2025-11-25 caller the upstream's question as a request tied to the caller's task, and completes", async () => {
    // Over HTTP with sessions: a 2025-11-25 connection that carries the task's question back as a request.
    const sessions = await serveHttp(buildServer({ name: 'app', version: '1', toolsets: [served], logger: quiet }), { port: 0, sessions: true, logger: quiet });
    const client = new Client({ name: 'tasks-v1', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: {} } });
    await client.connect(new StreamableHTTPClientTransport(new URL(sessions.mounts[0]!.url)));
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const asked: { kind: string; params?: { message?: string } }[] = [];
    const session = createTaskSessionFromClient(client as never, {
      endpointId: 'sessions#v1',
      tools: { currentTool: (name) => tools.get(name) },
      onInputRequest: async (request) => {
        asked.push(request as never);
        return { action: 'accept', content: { ship: false } } as never;
      },
    });
    try {
      const execution = await session.callTool('build', { steps: 1 }, { task: { preference: 'require' } });
      const { outcome } = await execution.settle();
      expect(outcome).toMatchObject({ status: 'completed', result: { structuredContent: { data: { steps: 1, shipped: false } } } });
      expect(asked).toEqual([{ kind: 'elicitation', params: expect.objectContaining({ message: 'Ship the 1-step build?' }) }]);
    } finally {
      await session.close();
      await client.close();
      await sessions.close();
    }
  });
});
