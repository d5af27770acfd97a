import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { buildServer, Field, Result, Tool, ToolError, ToolResult, Toolset, type ClassType } from '@toolsets/core';
import { connectInMemory } from '../harness/in-memory';
import { fmt, judge, type ScenarioResult } from '../harness/report';
import { median } from '../harness/stats';

const TOOLS_PER_TOOLSET = 50;

function named<T extends object>(cls: T, name: string): T {
  Object.defineProperty(cls, 'name', { value: name });
  return cls;
}

const decorate = (decorators: PropertyDecorator[], target: object, key: string) => decorators.forEach((d) => d(target, key));

/** `count` tools as generated classes, each with its own args DTO, result DTO and nested item DTO. */
export function generateToolsets(count: number, prefix = 'g'): ClassType[] {
  const toolsets: ClassType[] = [];
  for (let first = 0; first < count; first += TOOLS_PER_TOOLSET) {
    const toolset = named(class {}, `Generated${prefix}${first}Toolset`) as unknown as ClassType;
    for (let i = first; i < Math.min(count, first + TOOLS_PER_TOOLSET); i++) {
      const Args = named(class {}, `${prefix}Args${i}`);
      decorate([Field(() => String, { description: 'What to look for.' })], Args.prototype, 'query');
      decorate([Field(() => Number), IsOptional(), IsInt(), Min(1), Max(100)], Args.prototype, 'limit');
      const Item = named(class {}, `${prefix}Item${i}`);
      decorate([Field(() => String)], Item.prototype, 'id');
      decorate([Field(() => Number), IsOptional()], Item.prototype, 'score');
      const ResultClass = named(class extends ToolResult {}, `${prefix}Result${i}`);
      Result({ description: `Result of tool ${i}.` })(ResultClass);
      decorate([Field(() => Number)], ResultClass.prototype, 'count');
      decorate([Field(() => [Item])], ResultClass.prototype, 'items');
      const method = `tool${i}`;
      const descriptor: PropertyDescriptor = { value: () => ({ message: 'ok', count: 0, items: [] }), configurable: true, writable: true };
      Object.defineProperty(toolset.prototype, method, descriptor);
      Tool({ name: `${prefix}_tool_${i}`, description: `Generated tool ${i}.`, args: Args, returns: [ResultClass, ToolError] })(toolset.prototype, method, descriptor);
    }
    Toolset({ name: `generated-${prefix}-${first}` })(toolset);
    toolsets.push(toolset);
  }
  return toolsets;
}

/** One size, measured in this (fresh) process: the first build is the real, cold startup. */
export async function catalogSize(count: number): Promise<Record<string, number>> {
  const toolsets = generateToolsets(count);
  let start = performance.now();
  const server = buildServer({ name: 'catalog', version: '1.0.0', toolsets });
  const coldMs = performance.now() - start;
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    start = performance.now();
    buildServer({ name: 'catalog', version: '1.0.0', toolsets });
    warm.push(performance.now() - start);
  }
  const { client, close } = await connectInMemory(() => server.createServer());
  const listed: number[] = [];
  for (let i = 0; i < 6; i++) {
    start = performance.now();
    const { tools } = await client.listTools();
    listed.push(performance.now() - start);
    if (tools.length !== count) throw new Error(`tools/list returned ${tools.length} tools, expected ${count}`);
  }
  await close();
  return { count, coldMs, warmMs: median(warm), listMs: median(listed.slice(1)) };
}

export function catalogReport(sizes: Record<string, number>[]): ScenarioResult {
  const perTool = (size: Record<string, number>, key = 'coldMs') => (size[key] * 1000) / size['count'];
  const at = (count: number) => sizes.find((s) => s['count'] === count)!;
  // Linearity is judged warm: a cold build at 100 tools is mostly one-time JIT and module warm-up.
  const growth = perTool(at(5000), 'warmMs') / perTool(at(100), 'warmMs');
  return {
    scenario: 'catalog',
    title: '3. Startup and catalog size (generated tools, each with its own args, result and nested item DTO)',
    method: 'One fresh process per size. Cold = the first `buildServer` (gate, schemas, validators) in the process; warm = median of 3 more; `tools/list` = median over the SDK v2 Client in memory.',
    headers: ['tools', 'cold build ms', 'cold µs/tool', 'warm build ms', 'warm µs/tool', 'tools/list ms'],
    rows: sizes.map((s) => [String(s['count']), fmt(s['coldMs']), fmt(perTool(s)), fmt(s['warmMs']), fmt(perTool(s, 'warmMs')), fmt(s['listMs'], 2)]),
    verdicts: [
      { target: '1,000 tools gated and ready < 500 ms', measured: `${fmt(at(1000)['coldMs'])} ms`, outcome: judge((ms) => ms < 500, at(1000)['coldMs']) },
      { target: 'per-tool cost at 5,000 ≤ 1.5 × per-tool cost at 100 (warm)', measured: `${fmt(growth, 2)}×`, outcome: judge((g) => g <= 1.5, growth) },
    ],
  };
}
