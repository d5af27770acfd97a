import 'reflect-metadata';
import { connectToolset, textOf } from '@toolsets/testing';
import { REPORTS_KEY_HEADER, ReportsToolset } from '../src';

describe('ReportsToolset, called by a client without task support (a blocking call)', () => {
  it('renders, asks whether to publish through an ordinary elicitation, and returns the typed result', async () => {
    const asked: unknown[] = [];
    const toolset = await connectToolset(ReportsToolset, {
      headers: { [REPORTS_KEY_HEADER]: 'team-q3' },
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

  it('refuses to render a report for a caller without the reports key, saying what to configure', async () => {
    const toolset = await connectToolset(ReportsToolset);
    const result = await toolset.call('render_report', { title: 'Q3', pages: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('x-reports-key');
    await toolset.close();
  });

  it('adds up 1 to n', async () => {
    const toolset = await connectToolset(ReportsToolset);
    const result = await toolset.call('tally', { items: 20 });
    expect(result.structuredContent).toEqual({ message: '1 + … + 20 = 210.', items: 20, total: 210, worker: process.pid });
    await toolset.close();
  });
});
