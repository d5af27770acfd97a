import { Cache, RateLimit, RequestContext, TaskContext, Tool, ToolError, Toolset, UseInterceptors } from '@toolsets/core';
import { PublishForm, ReportArgs, ReportResult } from './report.dto';
import { TallyArgs, TallyResult } from './tally.dto';

/** Waits `ms`, or less if `signal` aborts first (the client cancelled the task). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Who a report is for: its tasks (and the question each asks) belong to the caller who sent this key. */
export const REPORTS_KEY_HEADER = 'x-reports-key';

/**
 * The demo of long-running tools: each runs as an MCP task for a client that supports tasks
 * (it polls, answers questions with tasks/update, may cancel) and as a blocking call otherwise.
 * A task belongs to the credential its caller sent: without one, every caller of a stateless
 * HTTP mount would be the same owner, so `render_report`, whose question names the report, needs it.
 */
@Toolset({
  name: 'reports',
  description: 'Reports that take a while: tasks the client polls, with a question mid-way.',
  credentialHeaders: [REPORTS_KEY_HEADER],
})
export class ReportsToolset {
  constructor(
    private readonly task: TaskContext,
    private readonly context: RequestContext,
  ) {}

  // Reports are costly: 20 per caller, then one a minute; with REDIS_URL the limit holds across replicas.
  @UseInterceptors(RateLimit({ capacity: 20, refillPerSecond: 1 / 60, name: 'render-report' }))
  @Tool({
    description:
      'Render a report page by page (about 100 ms a page), then ask the user whether and where to publish it. ' +
      `Requires the caller's key in the \`${REPORTS_KEY_HEADER}\` HTTP header (over stdio: the X_REPORTS_KEY environment variable); if it is missing, ask the user to configure their MCP client to send it.`,
    args: ReportArgs,
    returns: [ReportResult, ToolError],
    elicits: [PublishForm],
    task: { support: 'optional', pollIntervalMs: 500 },
  })
  async renderReport({ title, pages }: ReportArgs): Promise<ReportResult | ToolError> {
    // Without the key, a MissingCredentialError result says what to configure, before any work.
    this.context.credential(REPORTS_KEY_HEADER);
    for (let page = 1; page <= pages; page++) {
      await pause(100, this.task.signal);
      if (this.task.signal.aborted) return new ToolError('cancelled', `Stopped after ${page - 1} of ${pages} pages.`);
      await this.task.progress(page, pages, `rendered page ${page}`);
    }
    const answer = await this.task.requireInput(PublishForm, `Publish "${title}" (${pages} pages)?`);
    if (answer.action !== 'accept') return new ToolError('not_published', `The user chose to ${answer.action}; the report was rendered but not published.`);
    if (!answer.content.publish) return { message: `Rendered "${title}" (${pages} pages); not published.`, title, pages };
    const publishedTo = answer.content.channel;
    return { message: `Rendered "${title}" (${pages} pages) and published it by ${publishedTo}.`, title, pages, publishedTo };
  }

  // A sum is the same every time: kept a minute (with REDIS_URL, one replica's sum is served by all).
  @UseInterceptors(Cache({ ttlMs: 60_000, name: 'tally' }))
  @Tool({
    description: 'Add up the whole numbers from 1 to a limit, slowly (about 10 ms a number). Safe to run twice.',
    args: TallyArgs,
    returns: TallyResult,
    annotations: { readOnlyHint: true, idempotentHint: true },
    // A short sum answers at once (inlineMs): under 150 ms a task would only cost the client a poll.
    task: { support: 'optional', pollIntervalMs: 200, idempotent: true, inlineMs: 150 },
  })
  async tally({ items, label }: TallyArgs): Promise<TallyResult> {
    let total = 0;
    for (let item = 1; item <= items; item++) {
      if (item % 10 === 1) await pause(100, this.task.signal);
      total += item;
    }
    return { message: `1 + … + ${items} = ${total}.`, items, total, ...(label !== undefined && { label }), worker: process.pid };
  }
}
