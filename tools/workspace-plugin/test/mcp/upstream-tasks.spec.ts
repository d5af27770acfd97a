import 'reflect-metadata';
import type { ClassType } from '@toolsets/core';
import { connectToolset } from '@toolsets/testing';
import { generateMcpToolset } from '../../src/mcp/generate-mcp-toolset';
import type { UpstreamSnapshot } from '../../src/mcp/upstream-snapshot';
import { loadGeneratedSources } from '../../src/openapi/load-generated';

/** An upstream with a task-only tool, a tool that may run as a task, and an ordinary one. */
function snapshotOf(era: 'legacy' | 'modern'): UpstreamSnapshot {
  const tool = (name: string, taskSupport?: 'required' | 'optional') => ({ name, description: `Does ${name}.`, inputSchema: { type: 'object' as const }, ...(taskSupport && { execution: { taskSupport } }) });
  return {
    server: { name: 'jobs', version: '1' },
    protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
    era,
    tools: [tool('slow', 'required'), tool('maybe', 'optional'), tool('plain')],
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
}

describe("an upstream's task tools in the generated library", () => {
  it("are task tools of the same support for a 2025-11-25 upstream, whose connection then answers its tasks' questions", async () => {
    const generated = generateMcpToolset('jobs', snapshotOf('legacy'), { name: 'jobs', source: { command: 'none' } });
    expect(generated.leftOut).toEqual([]);
    const source = generated.files['src/generated/jobs.toolset.ts']!;
    expect(source).toContain("task: 'required' }, this.context");
    expect(source).toMatch(/tasks: true \};/);
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    const toolset = await connectToolset(exported[generated.className]!, { era: 'legacy' });
    try {
      const tools = await toolset.listTools();
      expect(Object.fromEntries(tools.map((listed) => [listed.name, listed.execution?.taskSupport]))).toEqual({ slow: 'required', maybe: 'optional', plain: undefined });
    } finally {
      await toolset.close();
    }
  });

  it("leaves a 2026-07-28 upstream's task-only tool out, saying why, and serves its optional one as an ordinary call", () => {
    const generated = generateMcpToolset('jobs', snapshotOf('modern'), { name: 'jobs', source: { command: 'none' } });
    expect(generated.leftOut).toEqual([{ tool: 'slow', reason: expect.stringContaining("relaying a 2026-07-28 upstream's tasks is not built yet") }]);
    const source = generated.files['src/generated/jobs.toolset.ts']!;
    expect(source).not.toContain('task:');
    expect(source).not.toContain('tasks: true');
  });
});
