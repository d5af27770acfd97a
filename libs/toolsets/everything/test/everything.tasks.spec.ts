import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import { buildServer, serveHttp, type HttpServerHandle } from '@toolsets/core';
import { closeUpstreams } from '@toolsets/mcp-upstream';
import { httpDispatch, modernMeta, pollUntil, recordingLogger, resultOf, type RawDispatch } from '@toolsets/testing';
import { EverythingToolset } from '../src';

// The reference server from npm over stdio. Its `simulate-research-query` runs only as a task
// (2025-11-25 `execution.taskSupport: "required"`): four stages of a second each, and with
// `ambiguous` it asks which interpretation of the topic is meant (an elicitation tied to its task).
process.env['EVERYTHING_MCP_COMMAND'] = `node ${join(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js')} stdio`;

/** The reference server's own stage messages, which the caller's task shows as they come. */
const STAGES = ['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...'];

/** A 2026-07-28 caller that declared the tasks extension and answers forms. */
const meta = () => modernMeta({ elicitation: true });

describe("the upstream's task tool, relayed as a task of the caller's", () => {
  const logger = recordingLogger();
  let handle: HttpServerHandle;
  let send: RawDispatch;
  beforeAll(async () => {
    handle = await serveHttp(buildServer({ name: 'everything', version: '1.0.0', toolsets: [EverythingToolset], logger }), { port: 0 });
    send = httpDispatch(`${handle.origin}/mcp`);
  });
  afterAll(async () => {
    await handle?.close();
    await closeUpstreams();
  });

  const taskOf = async (taskId: string) => resultOf(await send({ method: 'tasks/get', params: { taskId, _meta: meta() } }));

  it('advertises it as a task-only tool', async () => {
    const listed = resultOf(await send({ method: 'tools/list', params: { _meta: meta() } }));
    const tool = (listed['tools'] as { name: string; execution?: { taskSupport?: string } }[]).find((entry) => entry.name === 'simulate-research-query');
    expect(tool?.execution?.taskSupport).toBe('required');
  });

  it("shows the upstream's stages, asks the upstream's question in the caller's task, and completes with the upstream's report (2026-07-28 caller)", async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'python', ambiguous: true }, _meta: meta() } }));
    expect(created['resultType']).toBe('task');
    const taskId = created['taskId'] as string;
    const seen = new Set<string>();
    const asking = await pollUntil(
      () => taskOf(taskId),
      (task) => {
        if (typeof task['statusMessage'] === 'string') seen.add(task['statusMessage']);
        return task['status'] !== 'working';
      },
      { what: 'the task waiting for an answer', everyMs: 100 },
    );
    expect(asking['status']).toBe('input_required');
    // The upstream's own stage messages reached the caller's task before it asked.
    expect([...seen].some((message) => STAGES.includes(message))).toBe(true);
    const requests = asking['inputRequests'] as Record<string, { method: string; params: { message: string; requestedSchema: { properties: Record<string, { oneOf: { const: string }[] }> } } }>;
    const [key, question] = Object.entries(requests)[0]!;
    expect(question.method).toBe('elicitation/create');
    expect(question.params.message).toContain('"python" could have multiple interpretations');
    expect(question.params.requestedSchema.properties['interpretation']!.oneOf.map((option) => option.const)).toEqual(['programming', 'snake', 'comedy']);
    // The upstream's own task id stays with the server that relays it.
    expect(JSON.stringify(asking)).not.toContain('related-task');

    resultOf(await send({ method: 'tasks/update', params: { taskId, inputResponses: { [key]: { action: 'accept', content: { interpretation: 'snake' } } }, _meta: meta() } }));
    const done = await pollUntil(() => taskOf(taskId), (task) => task['status'] !== 'working' && task['status'] !== 'input_required', { what: 'the task', everyMs: 100 });
    expect(done['status']).toBe('completed');
    const result = done['result'] as { structuredContent: { message: string }; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.message).toContain('# Research Report: python (snake)');
  });

  it("cancels the upstream's task when the caller cancels its own", async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'tides' }, _meta: meta() } }));
    const taskId = created['taskId'] as string;
    // Once the upstream's first stage shows, the upstream's task exists.
    await pollUntil(() => taskOf(taskId), (task) => STAGES.includes(task['statusMessage'] as string), { what: "the upstream's first stage", everyMs: 50 });
    resultOf(await send({ method: 'tasks/cancel', params: { taskId, _meta: meta() } }));
    expect((await taskOf(taskId))['status']).toBe('cancelled');
    // The relay told the upstream, and the upstream answered that its task is cancelled.
    const line = await pollUntil(
      async () => logger.lines.find((entry) => entry.includes("upstream task cancelled with its caller's")),
      (found) => found !== undefined,
      { what: 'the log line of the upstream cancel' },
    );
    expect(JSON.parse(line!)[1]).toEqual({ upstream: 'everything', tool: 'simulate-research-query', status: 'cancelled' });
  });

  it("ends the caller's task with a ToolError saying what happened when the upstream dies mid-task, and the next task gets a new upstream", async () => {
    const created = resultOf(await send({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'volcanoes' }, _meta: meta() } }));
    const taskId = created['taskId'] as string;
    await pollUntil(() => taskOf(taskId), (task) => STAGES.includes(task['statusMessage'] as string), { what: "the upstream's first stage", everyMs: 50 });
    // The upstream is this test process's child (the library's stdio connection).
    const children = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean);
    const upstreamChild = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server-everything'));
    expect(upstreamChild).toBeDefined();
    process.kill(Number(upstreamChild), 'SIGKILL');
    const ended = await pollUntil(() => taskOf(taskId), (task) => task['status'] !== 'working', { what: 'the task', everyMs: 100 });
    expect(ended['status']).toBe('completed');
    const result = ended['result'] as { isError?: boolean; structuredContent: { error: string; detail: string } };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toBe('upstream_unavailable');
    expect(result.structuredContent.detail).toContain('simulate-research-query');

    const again = resultOf(await send({ method: 'tools/call', params: { name: 'simulate-research-query', arguments: { topic: 'rivers' }, _meta: meta() } }));
    const next = await pollUntil(() => taskOf(again['taskId'] as string), (task) => STAGES.includes(task['statusMessage'] as string), { what: 'the next task on a new upstream', everyMs: 50 });
    expect(next['status']).toBe('working');
    resultOf(await send({ method: 'tasks/cancel', params: { taskId: again['taskId'], _meta: meta() } }));
  });

  it("asks a 2025-11-25 caller the upstream's question as a request tied to the caller's task, and completes", async () => {
    const definition = buildServer({ name: 'everything', version: '1.0.0', toolsets: [EverythingToolset] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await definition.connect(serverSide);
    const client = new Client({ name: 'tasks-v1', version: '1' }, { versionNegotiation: { mode: 'legacy' }, capabilities: { elicitation: {} } });
    await client.connect(clientSide);
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]));
    const asked: { kind: string; params?: { message?: string } }[] = [];
    const session = createTaskSessionFromClient(client as never, {
      endpointId: 'memory#v1',
      tools: { currentTool: (name) => tools.get(name) },
      onInputRequest: async (request) => {
        asked.push(request as never);
        return { action: 'accept', content: { interpretation: 'historical' } } as never;
      },
    });
    try {
      const execution = await session.callTool('simulate-research-query', { topic: 'rome', ambiguous: true }, { task: { preference: 'require' } });
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = (outcome as unknown as { result: { structuredContent: { message: string } } }).result;
      expect(result.structuredContent.message).toContain('# Research Report: rome (historical)');
      expect(asked).toEqual([{ kind: 'elicitation', params: expect.objectContaining({ message: expect.stringContaining('"rome" could have multiple interpretations') }) }]);
    } finally {
      await session.close();
      await client.close();
    }
  });
});
