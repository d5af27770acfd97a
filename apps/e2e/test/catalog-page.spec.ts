import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { Browser, Page } from 'playwright-core';
import { buildServer, Field, Result, serveHttp, Tool, ToolError, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { launchChromium, reportPath } from './support/browser';
import { httpClient } from './support/clients';
import { appMain, startServerProcess, type ServerProcess } from './support/server-process';

const TOOLS = 1_000;
const AREAS = ['invoice', 'customer', 'order', 'shipment', 'refund', 'ticket', 'subscription', 'payment', 'product', 'report'];

class RecordArgs {
  @Field({ description: 'The record to read, as shown in the dashboard.' })
  recordId!: string;

  @Field({ description: 'How many revisions to include, newest first.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  revisions?: number;

  @Field({ description: 'Which view of the record to return.' })
  @IsOptional()
  @IsIn(['summary', 'full'])
  view?: string;
}

class Revision {
  @Field({ description: 'When the revision was made.' })
  at!: Date;

  @Field({ description: 'Who made it.' })
  author!: string;
}

@Result({ description: 'The record, with its revisions.' })
class RecordResult extends ToolResult {
  @Field({ description: 'The record’s id.' })
  recordId!: string;

  @Field(() => [Revision], { description: 'Its revisions, newest first.' })
  revisions!: Revision[];
}

/** A toolset with a thousand tools, as an API's generated toolset has: `invoice_0000` … `report_0999`. */
function thousandToolsToolset() {
  @Toolset({ name: 'catalog_api', description: 'A large generated API.', credentialHeaders: ['x-api-key'] })
  class CatalogApiToolset {}
  for (let i = 0; i < TOOLS; i++) {
    const area = AREAS[i % AREAS.length];
    const name = `${area}_${String(i).padStart(4, '0')}`;
    const method = () => ({ message: 'ok', recordId: 'r', revisions: [] });
    Object.defineProperty(CatalogApiToolset.prototype, name, { value: method, writable: true, configurable: true });
    const descriptor = Object.getOwnPropertyDescriptor(CatalogApiToolset.prototype, name)!;
    Tool({ name, description: `Read one ${area} record (#${i}) with its revisions.`, args: RecordArgs, returns: [RecordResult, ToolError] })(CatalogApiToolset.prototype, name, descriptor);
  }
  return CatalogApiToolset;
}

/** What a browser shows at GET /: real Chromium, the real HTTP server on loopback. */
describe('the catalog page in a browser', () => {
  let browser: Browser;
  let large: HttpServerHandle;
  let demo: ServerProcess;

  beforeAll(async () => {
    browser = await launchChromium();
    large = await serveHttp(buildServer({ name: 'catalog_api', version: '3.1.0', toolsets: [thousandToolsToolset()] }), { port: 0 });
    demo = await startServerProcess(appMain('demo-server'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await large?.close();
    await demo?.stop();
  });

  /** A page that records every console error and uncaught exception (a CSP violation is one). */
  async function open(url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(url);
    return { page, problems };
  }

  it(`finds one tool among ${TOOLS} by typing, and shows its arguments and result from the schemas`, async () => {
    const sizes = await Promise.all(['identity', 'gzip'].map(async (encoding) => Number((await fetch(`${large.origin}/`, { headers: { accept: 'text/html', 'accept-encoding': encoding } })).headers.get('content-length'))));
    console.log(`catalog page for ${TOOLS} tools: ${Math.round(sizes[0] / 1024)} KiB, ${Math.round(sizes[1] / 1024)} KiB gzipped`);
    const { page, problems } = await open(`${large.origin}/`);
    expect(await page.textContent('#count')).toBe(`${TOOLS} tools`);
    expect(await page.locator('details.tool').count()).toBe(TOOLS);
    expect(await page.locator('details.tool:visible').count()).toBe(TOOLS);

    await page.keyboard.press('/');
    await page.keyboard.type('refund 0424');
    expect(await page.textContent('#count')).toBe(`1 of ${TOOLS} tools match`);
    const tool = page.locator('details.tool:visible');
    expect(await tool.count()).toBe(1);
    expect(await tool.getAttribute('id')).toBe('tool-catalog_api-refund_0424');
    expect(await tool.getAttribute('open')).toBe('');

    // The arguments and the result, as a reader sees them.
    const argumentRows = await tool.locator('h4:text("Arguments") + table tbody > tr').allInnerTexts();
    expect(argumentRows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
      'recordId required string The record to read, as shown in the dashboard.',
      'revisions optional integer How many revisions to include, newest first. value 1–50',
      'view optional "summary" | "full" Which view of the record to return.',
    ]);
    const result = tool.locator('h4:text("Result") ~ .arm');
    expect(await result.locator('h5').first().textContent()).toBe('RecordResult');
    expect(await result.first().innerText()).toMatch(/revisions\s+required\s+Revision\[\]\s+Its revisions, newest first\.\s+Revision[\s\S]*at\s+required\s+string \(date-time\)/);
    expect(await result.nth(1).locator('h5').first().textContent()).toBe('ToolError');

    // The search is kept in the address, so a link opens on the same tool.
    expect(new URL(page.url()).searchParams.get('q')).toBe('refund 0424');
    await page.screenshot({ path: shot('catalog-page-1000-tools.png'), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("builds the URL of a selection of the demo server's groups, in discovery or code mode, and the URL serves that selection", async () => {
    const { page, problems } = await open(`${demo.origin}/`);
    const section = page.locator('section#server-demo');
    await section.locator('details.groups > summary').click();
    expect(await section.locator('.pick-group').evaluateAll((boxes) => boxes.map((box) => box.getAttribute('value')))).toEqual(['hello', 'credential-demo']);
    await section.locator('.pick-group[value="credential-demo"]').check();
    await section.locator('.pick-discovery').check();
    const url = await section.locator('.selected-url').textContent();
    expect(url).toBe(`${demo.origin}/demo/mcp?toolsets=credential-demo&mode=discovery`);
    expect(await section.locator('.selected-size').textContent()).toMatch(/^\(tools\/list ~[\d,]+ tokens\)$/);
    // The demo server serves code mode too: its box takes the place of discovery's, one mode at a time.
    await section.locator('.pick-code').check();
    expect(await section.locator('.pick-discovery').isChecked()).toBe(false);
    const codeUrl = await section.locator('.selected-url').textContent();
    expect(codeUrl).toBe(`${demo.origin}/demo/mcp?toolsets=credential-demo&mode=code`);
    const codeTokens = await section.locator('.picker').getAttribute('data-code-tokens');
    expect(await section.locator('.selected-size').textContent()).toBe(`(tools/list ~${Number(codeTokens).toLocaleString('en')} tokens)`);
    await section.locator('.pick-discovery').check();
    expect(await section.locator('.pick-code').isChecked()).toBe(false);
    expect(await section.locator('.selected-url').textContent()).toBe(url);
    expect(problems).toEqual([]);
    await page.close();
    // What a client configured with that URL gets.
    const client = await httpClient('modern', url!, { 'x-demo-token': 'page-token' });
    const discoveryTools = (await client.listTools()).tools;
    expect(discoveryTools.map((tool) => tool.name)).toEqual(['search_tools', 'browse_tools', 'describe_tools', 'call_tool']);
    expect(discoveryTools[0]!.description).toContain("this server's 1 tool in 1 group");
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'greet' } }))['structuredContent'] as { tools: { toolset: string }[] };
    expect(found.tools.every((tool) => tool.toolset === 'credential-demo')).toBe(true);
    await client.close();
    // And with the code-mode URL: code mode's three tools, about as many tokens as the page said (its
    // figure is the whole server's list; search's description counts the selection's tools and groups).
    const coding = await httpClient('modern', codeUrl!, { 'x-demo-token': 'page-token' });
    const { tools } = await coding.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search', 'describe', 'execute']);
    expect(tools[0]!.description).toContain("this server's 1 tool in 1 group");
    expect(Math.abs(Math.round(Buffer.byteLength(JSON.stringify({ tools })) / 4) - Number(codeTokens))).toBeLessThanOrEqual(1);
    await coding.close();
  });

  it('opens a shared link on the tool it names, and narrows by any word of the description', async () => {
    const { page, problems } = await open(`${large.origin}/?q=invoice+%23990`);
    expect(await page.inputValue('#search')).toBe('invoice #990');
    expect(await page.textContent('#count')).toBe(`1 of ${TOOLS} tools match`);
    await page.fill('#search', 'shipment');
    expect(await page.textContent('#count')).toBe(`${TOOLS / AREAS.length} of ${TOOLS} tools match`);
    await page.fill('#search', 'no such tool');
    expect(await page.textContent('#count')).toBe(`0 of ${TOOLS} tools match`);
    expect(await page.locator('.tools:visible').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the built demo app’s servers with their absolute URLs and a client config with placeholders only', async () => {
    const { page, problems } = await open(`${demo.origin}/`);
    expect(await page.locator('section.server h2').allInnerTexts()).toEqual([
      expect.stringMatching(/^hello /),
      expect.stringMatching(/^credential-demo /),
      expect.stringMatching(/^demo /),
      expect.stringMatching(/^notes /),
      expect.stringMatching(/^reports /),
      expect.stringMatching(/^everything /),
    ]);
    // A tool of an upstream MCP server without an output schema says it answers content only.
    expect(await page.locator('section#server-everything').textContent()).toContain('content only: the upstream tool declares no output schema');
    const credential = page.locator('section#server-credential-demo');
    expect(await credential.locator('p .mcp-url').textContent()).toBe(`${demo.origin}/credential-demo/mcp`);
    expect(await credential.innerText()).toContain('Send x-demo-token with every request');

    await credential.locator('details.config > summary').click();
    const vscode = JSON.parse((await credential.locator('.snippet pre').nth(1).textContent())!);
    expect(vscode).toEqual({ servers: { 'credential-demo': { type: 'http', url: `${demo.origin}/credential-demo/mcp`, headers: { 'x-demo-token': '<your x-demo-token value>' } } } });

    await page.fill('#search', 'whoami');
    const whoami = credential.locator('details.tool:visible');
    expect(await whoami.getAttribute('id')).toBe('tool-credential-demo-whoami');
    // The demo server lists whoami too, so the search has two matches and opens neither.
    expect(await page.textContent('#count')).toMatch(/^2 of \d+ tools match$/);
    await whoami.locator('summary').click();
    expect(await whoami.locator('h4:text("Arguments") + p').textContent()).toBe('None.');
    expect(await whoami.innerText()).toMatch(/account\s+optional\s+string/);
    await page.screenshot({ path: shot('catalog-page-demo.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("marks the tools with a view and previews one in a sandboxed frame, fed a sample result made from the tool's output schema", async () => {
    const { page, problems } = await open(`${demo.origin}/#tool-notes-list_notes`);
    const notes = page.locator('section#server-notes');
    expect(await notes.locator('details.tool:has(.badge.view) code.name').allTextContents()).toEqual(['list_notes', 'add_note']);
    const tool = page.locator('#tool-notes-list_notes');
    expect(await tool.innerText()).toMatch(/Hosts with MCP Apps show the result in ui:\/\/notes\/notes-board \([\d,]+ bytes\); it reaches no other origin\./);
    await tool.locator('button.preview').click();
    const frameElement = tool.locator('.view-preview iframe');
    expect(await frameElement.getAttribute('sandbox')).toBe('allow-scripts');
    const view = (await frameElement.elementHandle())!.contentFrame();
    const frame = (await view)!;
    // The sample: one note per list, each string named after its field, the message saying it is made up.
    await frame.waitForFunction(() => document.querySelectorAll('#notes li').length === 1);
    expect(await frame.locator('#summary').textContent()).toBe('A sample result, made up from the output schema.');
    expect(await frame.locator('#notes li').textContent()).toContain('sample text');
    // The view asks for nothing the page does not answer; a call from it is declined, not sent.
    await frame.locator('#text').fill('from the preview');
    await frame.locator('#add-button').click();
    await frame.waitForFunction(() => document.querySelector('#status')?.className === 'error');
    expect(await frame.locator('#status').textContent()).toMatch(/previews the view with a sample result and makes no calls \(tools\/call\)/);
    await page.screenshot({ path: shot('catalog-page-view-preview.png'), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();

    const served = await fetch(`${demo.origin}/_view/notes/list_notes`);
    expect(served.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts; default-src 'none'; .*connect-src 'none'; .*frame-ancestors 'self'$/);
    expect((await fetch(`${demo.origin}/_view/notes/get_note`)).status).toBe(404);
  });

  it('completes the URLs from the address the browser used, path prefix kept, with or without a trailing slash', async () => {
    const html = await (await fetch(`${demo.origin}/`, { headers: { accept: 'text/html' } })).text();
    const csp = (await fetch(`${demo.origin}/`, { headers: { accept: 'text/html' } })).headers.get('content-security-policy')!;
    for (const address of ['https://tools.example.com/team-a', 'https://tools.example.com/team-a/', 'https://tools.example.com/team-a/?q=whoami']) {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      // The page as a proxy that mounts the server under /team-a would deliver it, policy included.
      await page.route('https://tools.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', headers: { 'content-security-policy': csp }, body: html }));
      await page.goto(address);
      expect(await page.locator('section#server-credential-demo p .mcp-url').textContent()).toBe('https://tools.example.com/team-a/credential-demo/mcp');
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});

function shot(name: string): string {
  const path = reportPath(name);
  mkdirSync(dirname(path), { recursive: true });
  console.log(`screenshot: ${path}`);
  return path;
}
