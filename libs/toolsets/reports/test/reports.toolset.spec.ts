import 'reflect-metadata';
import { connectToolset } from '@toolsets/testing';
import { ReportsToolset } from '../src';

describe('ReportsToolset, called by a client without task support (a blocking call)', () => {
  it('renders, asks whether to publish through an ordinary elicitation, and returns the typed result', async () => {
    const asked: unknown[] = [];
    const toolset = await connectToolset(ReportsToolset, {
      onElicit: async (params: { message: string }) => {
        asked.push(params.message);
        return { action: 'accept', content: { publish: true, channel: 'email' } };
      },
    });
    const result = await toolset.call('render_report', { title: 'Q3', pages: 2 });
    expect(result.structuredContent).toEqual({ message: 'Rendered "Q3" (2 pages) and published it by email.', title: 'Q3', pages: 2, publishedTo: 'email' });
    expect(asked).toEqual(['Publish "Q3" (2 pages)?']);
    await toolset.close();
  });

  it('adds up 1 to n', async () => {
    const toolset = await connectToolset(ReportsToolset);
    const result = await toolset.call('tally', { items: 20 });
    expect(result.structuredContent).toEqual({ message: '1 + … + 20 = 210.', items: 20, total: 210, worker: process.pid });
    await toolset.close();
  });
});
