import { metrics, trace } from '@opentelemetry/api';
import type { Tool } from '@modelcontextprotocol/client';
import type { Logger } from '@toolsets/core';
import { toolFingerprint } from '@toolsets/core/tool-fingerprint';

/** How a served tool moved away from the contract the library was generated from. */
export type DriftKind = 'removed' | 'changed';

const driftCounter = () => metrics.getMeter('@toolsets/mcp-upstream').createCounter('toolsets.upstream.drift', { description: 'Tools an upstream MCP server changed or removed since its library was generated, and tools it added.' });

/**
 * One connection's drift checks (at connect, on each `list_changed`, on each poll or expiry): the
 * served tools whose upstream no longer matches the pinned contract (`pins`: each upstream tool's
 * fingerprint at generation), removed or taking or returning something else. A tool the upstream
 * added is not served until the library is regenerated; it is only reported. Each finding is
 * reported when a check first finds it (a log line, a span event on the call that noticed it and a
 * metric with `upstream` and `kind`), not again by every check that still finds it: an upstream
 * that sends `list_changed` several times while it starts, or a poll every few seconds, would
 * otherwise repeat the same lines and count one drift many times. A finding that goes away and
 * comes back is reported again.
 */
export class DriftReports {
  /** What the last check found, as `kind:tool`. */
  private reported = new Set<string>();

  constructor(
    private readonly upstream: string,
    private readonly logger: Logger,
  ) {}

  /** The served tools that drifted, by how; reporting what the last check did not find. */
  check(pins: Record<string, string>, live: readonly Tool[]): Map<string, DriftKind> {
    const upstream = this.upstream;
    const drifted = new Map<string, DriftKind>();
    const byName = new Map(live.map((tool) => [tool.name, tool]));
    for (const [name, pinned] of Object.entries(pins)) {
      const tool = byName.get(name);
      if (!tool) drifted.set(name, 'removed');
      else if (toolFingerprint(tool) !== pinned) drifted.set(name, 'changed');
    }
    const added = live.filter((tool) => pins[tool.name] === undefined).map((tool) => tool.name);
    const found = new Set([...[...drifted].map(([tool, kind]) => `${kind}:${tool}`), ...added.map((tool) => `added:${tool}`)]);
    const span = trace.getActiveSpan();
    for (const [tool, kind] of drifted) {
      if (this.reported.has(`${kind}:${tool}`)) continue;
      this.logger.warn('upstream MCP server drifted from the pinned contract', { upstream, kind, tool, fix: 'regenerate the library: nx run <library>:mcp-refresh' });
      span?.addEvent('toolsets.upstream.drift', { 'toolsets.upstream': upstream, 'toolsets.upstream.drift': kind, 'gen_ai.tool.name': tool });
      driftCounter().add(1, { upstream, kind });
    }
    const newlyAdded = added.filter((tool) => !this.reported.has(`added:${tool}`));
    if (newlyAdded.length > 0) {
      this.logger.info('upstream MCP server offers tools its library does not serve yet', { upstream, kind: 'added', tools: newlyAdded });
      span?.addEvent('toolsets.upstream.drift', { 'toolsets.upstream': upstream, 'toolsets.upstream.drift': 'added', 'toolsets.upstream.tools': newlyAdded.join(',') });
      driftCounter().add(newlyAdded.length, { upstream, kind: 'added' });
    }
    this.reported = found;
    return drifted;
  }
}
