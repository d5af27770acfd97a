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
  it.each(['legacy', 'modern'] as const)('are task tools of the same support (a %s upstream)', async (era) => {
    const generated = generateMcpToolset('jobs', snapshotOf(era), { name: 'jobs', source: { command: 'none' } });
    const source = generated.files['src/generated/jobs.toolset.ts']!;
    expect(source).toContain("task: 'required' }, this.context");
    // A 2025-era connection says at connect that it answers what its tasks ask; a 2026-07-28 request says so itself.
    if (era === 'legacy') expect(source).toMatch(/tasks: true \};/);
    else expect(source).not.toContain('tasks: true');
    const exported = loadGeneratedSources(generated.files) as Record<string, ClassType>;
    const toolset = await connectToolset(exported[generated.className]!, { era: 'legacy' });
    try {
      const tools = await toolset.listTools();
      expect(Object.fromEntries(tools.map((listed) => [listed.name, listed.execution?.taskSupport]))).toEqual({ slow: 'required', maybe: 'optional', plain: undefined });
    } finally {
      await toolset.close();
    }
  });
});
