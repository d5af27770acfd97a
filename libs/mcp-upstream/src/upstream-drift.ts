import { metrics, trace } from '@opentelemetry/api';
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '@toolsets/core';
import { toolFingerprint } from '@toolsets/core/tool-fingerprint';

/** How a served tool moved away from the contract the library was generated from. */
export type DriftKind = 'removed' | 'changed';

const driftCounter = () => metrics.getMeter('@toolsets/mcp-upstream').createCounter('toolsets.upstream.drift', { description: 'Tools an upstream MCP server changed or removed since its library was generated, and tools it added.' });

/**
 * The served tools whose upstream no longer matches the pinned contract (`pins`: each upstream
 * tool's fingerprint at generation): removed, or taking or returning something else. A tool the
 * upstream added is not served until the library is regenerated; it is only reported. Each
 * finding is a log line, a span event on the call that noticed it and a metric (`upstream`, `kind`).
 */
export function driftOf(upstream: string, pins: Record<string, string>, live: readonly Tool[], logger: Logger): Map<string, DriftKind> {
  const drifted = new Map<string, DriftKind>();
  const byName = new Map(live.map((tool) => [tool.name, tool]));
  for (const [name, pinned] of Object.entries(pins)) {
    const tool = byName.get(name);
    if (!tool) drifted.set(name, 'removed');
    else if (toolFingerprint(tool) !== pinned) drifted.set(name, 'changed');
  }
  const added = live.filter((tool) => pins[tool.name] === undefined).map((tool) => tool.name);
  const span = trace.getActiveSpan();
  for (const [tool, kind] of drifted) {
    logger.warn('upstream MCP server drifted from the pinned contract', { upstream, kind, tool, fix: 'regenerate the library: nx run <library>:mcp-refresh' });
    span?.addEvent('toolsets.upstream.drift', { 'toolsets.upstream': upstream, 'toolsets.upstream.drift': kind, 'gen_ai.tool.name': tool });
    driftCounter().add(1, { upstream, kind });
  }
  if (added.length > 0) {
    logger.info('upstream MCP server offers tools its library does not serve yet', { upstream, kind: 'added', tools: added });
    span?.addEvent('toolsets.upstream.drift', { 'toolsets.upstream': upstream, 'toolsets.upstream.drift': 'added', 'toolsets.upstream.tools': added.join(',') });
    driftCounter().add(added.length, { upstream, kind: 'added' });
  }
  return drifted;
}
