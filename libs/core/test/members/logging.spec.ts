import 'reflect-metadata';
import { LOG_LEVEL_META_KEY, type LoggingMessageNotification } from '@modelcontextprotocol/server';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Field, RequestContext, Result, Tool, ToolResult, Toolset, buildServer } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

@Result({ description: 'Done.' })
class DoneResult extends ToolResult {}

class ImportArgs {
  @Field()
  rows!: number;
}

@Toolset({ name: 'importer', credentialHeaders: ['x-import-key'] })
class ImportToolset {
  constructor(private readonly context: RequestContext) {}

  @Tool({ description: 'Import rows.', args: ImportArgs, returns: DoneResult })
  async import(args: ImportArgs): Promise<DoneResult> {
    await this.context.log('debug', 'starting');
    await this.context.log('info', { step: 'parsed', rows: args.rows, key: this.context.credential('x-import-key') });
    await this.context.log('warning', `key ${this.context.credential('x-import-key')} is old`);
    return { message: `Imported ${args.rows} rows.` };
  }
}

const KEY = 'sk-import-1234567890';

describe('RequestContext.log', () => {
  it('sends notifications/message at or above the level a 2025-era client set, and the same lines, redacted, to the server log', async () => {
    const { lines, logger } = recordingLogger();
    const server = buildServer({ name: 'importer', version: '1.0.0', toolsets: [ImportToolset], logger });
    const client = await connectLegacyClient(server, { headers: { 'x-import-key': KEY } });
    const received: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void received.push(notification.params as never));
    await client.setLoggingLevel('info');
    expect((await client.callTool({ name: 'import', arguments: { rows: 3 } })).structuredContent).toEqual({ message: 'Imported 3 rows.' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      { level: 'info', logger: 'importer', data: { step: 'parsed', rows: 3, key: '[redacted x-import-key]' } },
      { level: 'warning', logger: 'importer', data: 'key [redacted x-import-key] is old' },
    ]);
    const toolLines = lines.filter((line) => line.message === 'tool log');
    expect(toolLines.map((line) => [line.level, line.fields?.['level']])).toEqual([
      ['info', 'debug'],
      ['info', 'info'],
      ['warn', 'warning'],
    ]);
    expect(JSON.stringify(lines)).not.toContain(KEY);
    await client.close();
  });

  it('sends a 2026-07-28 client the lines at or above the level its request carries, and none when it carries none', async () => {
    const server = buildServer({ name: 'importer', version: '1.0.0', toolsets: [ImportToolset], logger: recordingLogger().logger });
    const client = await connectClient(server, { headers: { 'x-import-key': KEY } });
    const received: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => void received.push(notification.params.level));
    await client.callTool({ name: 'import', arguments: { rows: 1 } });
    await client.callTool({ name: 'import', arguments: { rows: 1 }, _meta: { [LOG_LEVEL_META_KEY]: 'debug' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['debug', 'info', 'warning']);
    await client.close();
  });
});
