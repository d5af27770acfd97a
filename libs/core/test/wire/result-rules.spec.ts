import 'reflect-metadata';
import { Contains } from 'class-validator';
import { buildServer, Field, Tool, ToolResult, Toolset } from '../../src';
import { connectClient, recordingLogger } from '../support/connect';

class Tag {
  @Field()
  @Contains('#')
  label!: string;
}

class TagsResult extends ToolResult {
  @Field()
  @Contains('#')
  primary!: string;

  @Field(() => [Tag])
  tags!: Tag[];
}

let next: TagsResult = { message: '', primary: '', tags: [] };

@Toolset({ name: 'tags' })
class TagsToolset {
  @Tool({ description: 'Return the tags the test set.', returns: TagsResult })
  tags(): TagsResult {
    return next;
  }
}

describe('result rules a JSON Schema cannot express', () => {
  const log = recordingLogger();
  const connect = () => connectClient(buildServer({ name: 'tags', version: '1', toolsets: [TagsToolset], logger: log.logger }));

  it('are checked by class-validator before sending, nested classes included', async () => {
    const client = await connect();
    next = { message: 'ok', primary: '#a', tags: [{ label: '#b' }] };
    expect((await client.callTool({ name: 'tags' })).structuredContent).toEqual(next);

    next = { message: 'bad', primary: '#a', tags: [{ label: 'no-hash' }] };
    const result = await client.callTool({ name: 'tags' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const correlationId = /correlation id ([0-9a-f-]{36})/.exec((result.content as { text: string }[])[0].text)?.[1];
    expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = log.lines.find((line) => line.fields?.['correlationId'] === correlationId);
    expect(logged?.fields?.['errors']).toEqual(['/tags/0/label label must contain a # string']);
    await client.close();
  });
});
