import 'reflect-metadata';
import { Field, Result, Tool, ToolResult, Toolset, audio, buildServer, embeddedResource, image, resourceLink, withContent } from '../../src';
import { connectClient, connectLegacyClient, recordingLogger } from '../support/connect';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

@Result({ description: 'A chart and its numbers.' })
class ChartResult extends ToolResult {
  @Field()
  points!: number;
}

@Toolset({ name: 'charts' })
class ChartToolset {
  @Tool({ description: 'Draw a chart.', returns: ChartResult })
  draw() {
    return withContent(
      { message: 'Drew 3 points.', points: 3 },
      image(PNG, 'image/png'),
      audio(new Uint8Array([82, 73, 70, 70]), 'audio/wav'),
      embeddedResource({ uri: 'charts://last/data.csv', mimeType: 'text/csv', text: 'x,y\n1,2' }),
      resourceLink({ uri: 'charts://last', name: 'last chart' }),
    );
  }

  @Tool({ description: 'Draw without pictures.', returns: ChartResult })
  plain(): ChartResult {
    return { message: 'No picture.', points: 0 };
  }

  @Tool({ description: 'Attach an image without a mime type.', returns: ChartResult })
  broken() {
    return withContent({ message: 'Oops.', points: 1 }, { type: 'image', data: PNG.toString('base64'), mimeType: '' });
  }
}

describe('content blocks beside a typed result', () => {
  it('sends structuredContent as declared, the JSON text block first, then the attached blocks in order (both eras)', async () => {
    const server = buildServer({ name: 'charts', version: '1.0.0', toolsets: [ChartToolset] });
    for (const client of [await connectClient(server), await connectLegacyClient(server)]) {
      const result = await client.callTool({ name: 'draw', arguments: {} });
      expect(result.structuredContent).toEqual({ message: 'Drew 3 points.', points: 3 });
      expect(result.content).toEqual([
        { type: 'text', text: '{"message":"Drew 3 points.","points":3}' },
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'charts://last/data.csv', mimeType: 'text/csv', text: 'x,y\n1,2' } },
        { type: 'resource_link', uri: 'charts://last', name: 'last chart' },
      ]);
      await client.close();
    }
  });

  it('keeps a plain return exactly as before: one JSON text block', async () => {
    const client = await connectClient(buildServer({ name: 'charts', version: '1.0.0', toolsets: [ChartToolset] }));
    expect((await client.callTool({ name: 'plain', arguments: {} })).content).toEqual([{ type: 'text', text: '{"message":"No picture.","points":0}' }]);
    await client.close();
  });

  it('refuses to send an image without a mime type: isError with a correlation id, the log says what to fix', async () => {
    const { lines, logger } = recordingLogger();
    const client = await connectClient(buildServer({ name: 'charts', version: '1.0.0', toolsets: [ChartToolset], logger }));
    const result = await client.callTool({ name: 'broken', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/attached content that cannot be sent.*correlation id/);
    expect(lines.at(-1)?.fields?.['errors']).toEqual(['content[0]: an image needs a mime type like image/png (got "")']);
    await client.close();
  });
});
