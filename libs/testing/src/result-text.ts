import type { CallToolResult } from '@modelcontextprotocol/server';

/** The text blocks of a result, joined: what a client that reads only text sees. */
export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
