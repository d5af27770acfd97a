import { createHash } from 'node:crypto';

/**
 * A short identity of what a tool takes and returns: its `inputSchema` and `outputSchema`, key order
 * aside. A library generated from an upstream MCP server records each tool's at generation; at run
 * time the upstream's live tools are compared with them, so a tool whose contract moved is noticed
 * (description, title and annotations are not part of it). Imports nothing of the framework: the
 * workspace plugin loads it on its own (`@toolsets/core/tool-fingerprint`).
 */
export function toolFingerprint(tool: { inputSchema?: unknown; outputSchema?: unknown }): string {
  return createHash('sha256')
    .update(canonical({ inputSchema: tool.inputSchema ?? null, outputSchema: tool.outputSchema ?? null }))
    .digest('hex')
    .slice(0, 16);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
