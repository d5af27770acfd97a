import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { launchChromium, reportPath } from './support/browser';
import { httpClient, type Era } from './support/clients';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';
import { startViewHost } from './support/view-host';

type HostReport = { uri: string; mimeType?: string; toolMeta: Record<string, unknown>; csp: unknown; structuredContent: { notes: { text: string }[] }; viewCalls: { name: string; outcome: string }[] };

/**
 * The notes board (an MCP Apps view) in a real host: a test page in Debian's Chromium that runs the
 * MCP Apps SDK's AppBridge over the SDK's own Client, against the built demo app over HTTP, its
 * notes mount checking tokens from a loopback issuer.
 */
describe('a tool view in an MCP Apps host', () => {
  let issuer: TestIssuer;
  let host: { origin: string; close(): Promise<void> };
  let demo: ServerProcess;
  let browser: Browser;
  let notesUrl: string;

  beforeAll(async () => {
    [issuer, host, browser] = await Promise.all([startTestIssuer(), startViewHost(), launchChromium()]);
    demo = await startServerProcess(appMain('demo-server'), { AUTH_ISSUER: issuer.issuer, AUTH_MOUNTS: 'notes', CORS_ORIGINS: host.origin });
    notesUrl = `${demo.origin}/notes/mcp`;
    issuer.audience = notesUrl;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
    await host?.close();
    await issuer?.close();
  });

  const token = (subject: string, scopes: string[]) => issuer.mint({ subject, scopes });

  it.each<Era>(['modern', 'legacy'])('links list_notes to its view and serves the view, in the %s era', async (era) => {
    const client = await httpClient(era, notesUrl, { authorization: `Bearer ${await token(`lister-${era}`, ['notes:read', 'notes:write'])}` });
    const { tools } = (await client.listTools()) as { tools: { name: string; _meta?: Record<string, unknown> }[] };
    expect(tools.find((tool) => tool.name === 'list_notes')?._meta).toEqual({ ui: { resourceUri: 'ui://notes/notes-board' }, 'ui/resourceUri': 'ui://notes/notes-board', 'io.modelcontextprotocol/groups': ['notes'] });
    const read = (await (client as unknown as { readResource(p: { uri: string }): Promise<{ contents: { mimeType: string; text: string }[] }> }).readResource({ uri: 'ui://notes/notes-board' })).contents[0]!;
    expect(read.mimeType).toBe('text/html;profile=mcp-app');
    expect(read.text).toContain('<ul id="notes">');
    await client.close();
  });

  /** Opens the host page, renders `tool`'s view with the token's result, and returns the page, the view's frame and the host's report. */
  async function render(bearer: string, protocolVersion = '2026-07-28'): Promise<{ page: Page; view: Frame; report: HostReport; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // Script errors anywhere on the page or in the view; a refused request's status line is the browser's, not a fault.
    page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
    await page.goto(`${host.origin}/`);
    const report = (await page.evaluate(
      (request) => (window as unknown as { hostView(r: unknown): Promise<unknown> }).hostView(request),
      { url: notesUrl, token: bearer, tool: 'list_notes', args: {}, protocolVersion },
    )) as HostReport;
    const view = page.frames().find((frame) => frame !== page.mainFrame())!;
    return { page, view, report, problems };
  }

  it('renders the real result of list_notes, and adds a note through the host with a token that may write', async () => {
    const bearer = await token('writer-1', ['notes:read', 'notes:write']);
    const seed = await httpClient('modern', notesUrl, { authorization: `Bearer ${bearer}` });
    await seed.callTool({ name: 'add_note', arguments: { text: 'buy oat milk' } });
    await seed.callTool({ name: 'add_note', arguments: { text: 'call the plumber' } });

    const { page, view, report, problems } = await render(bearer);
    expect(report).toMatchObject({ uri: 'ui://notes/notes-board', mimeType: 'text/html;profile=mcp-app' });
    expect(report.structuredContent.notes.map((note) => note.text)).toEqual(['call the plumber', 'buy oat milk']);
    // The view shows what the server sent: the message and one card per note, newest first.
    await view.waitForFunction(() => document.querySelectorAll('#notes li').length === 2);
    expect(await view.locator('#summary').textContent()).toBe('2 of 2 note(s), newest first.');
    expect(await view.locator('#notes li').allTextContents()).toEqual([expect.stringContaining('call the plumber'), expect.stringContaining('buy oat milk')]);
    const shot = reportPath('views/notes-board.png');
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    console.log(`screenshot: ${shot}`);

    // The view calls add_note (then list_notes) back through the host: the server stores it for this caller.
    await view.locator('#text').fill('water the plants');
    await view.locator('#add-button').click();
    await view.waitForFunction(() => document.querySelectorAll('#notes li').length === 3);
    expect(await view.locator('#status').textContent()).toMatch(/^Added note \d+\.$/);
    expect(await page.evaluate(() => (window as unknown as { viewCalls: unknown[] }).viewCalls)).toEqual([
      { name: 'add_note', outcome: 'ok' },
      { name: 'list_notes', outcome: 'ok' },
    ]);
    const listed = (await seed.callTool({ name: 'list_notes', arguments: {} })) as { structuredContent: { notes: { text: string }[] } };
    expect(listed.structuredContent.notes.map((note) => note.text)).toEqual(['water the plants', 'call the plumber', 'buy oat milk']);
    await seed.close();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("refuses the view's add_note when the token only reads, and the view says so; nothing is stored", async () => {
    const bearer = await token('reader-1', ['notes:read']);
    const { page, view, problems } = await render(bearer, '2025-11-25');
    await view.waitForFunction(() => document.querySelector('#summary')?.textContent === '0 of 0 note(s), newest first.');
    await view.locator('#text').fill('not allowed');
    await view.locator('#add-button').click();
    await view.waitForFunction(() => document.querySelector('#status')?.className === 'error');
    expect(await view.locator('#status').textContent()).toMatch(/^Refused: .*(403|insufficient[ _]scope).*notes:write/i);
    expect(await page.evaluate(() => (window as unknown as { viewCalls: { name: string; outcome: string }[] }).viewCalls)).toEqual([
      { name: 'add_note', outcome: expect.stringMatching(/^refused: .*(403|insufficient[ _]scope)/i) },
    ]);
    const reader = await httpClient('legacy', notesUrl, { authorization: `Bearer ${bearer}` });
    expect(((await reader.callTool({ name: 'list_notes', arguments: {} })) as { structuredContent: { total: number } }).structuredContent.total).toBe(0);
    await reader.close();
    expect(problems).toEqual([]);
    await page.close();
  });
});
