import type { Tool } from '@modelcontextprotocol/server';
import { buildServer, type ClassType } from '../../src';

/** The `tools/list` entries the given toolsets advertise, by tool name. */
export function describeTools(...toolsets: ClassType[]): Record<string, Tool> {
  const server = buildServer({ name: 'test', version: '0.0.0', toolsets });
  return Object.fromEntries([...server.catalog.tools].map(([name, tool]) => [name, tool.descriptor]));
}

/** How ToolResult declares `message`; every result schema starts with it. */
export const MESSAGE_PROPERTY = {
  type: 'string',
  description: 'The answer in plain words, for the model to read first.',
};
