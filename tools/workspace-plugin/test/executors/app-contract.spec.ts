import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import appContractExecutor from '../../src/executors/app-contract/executor';
import { capturedConsole, executorContext } from '../support/executor-context';

const context = executorContext;

describe('app contract executor', () => {
  const { out, err } = capturedConsole();

  it('fails an app whose server takes two toolsets with a tool of the same name, naming both methods', async () => {
    const entry = 'tools/workspace-plugin/test/fixtures/clashing-app/servers.js';
    await expect(appContractExecutor({ entry }, context('clashing', 'apps/clashing'))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain("Server 'clashing' refused to start: 1 contract violation.");
    expect(err.join('\n')).toContain(
      "The tool name 'hello' is used by GreetingsToolset.hello() (toolset 'greetings') and by WelcomeToolset.hello() (toolset 'welcome')",
    );
  });

  it('passes an app that follows the contract and prints every server it serves, without listening', async () => {
    const entry = 'tools/workspace-plugin/test/fixtures/conforming-app/servers.js';
    await expect(appContractExecutor({ entry }, context('counting-app', 'apps/counting-app'))).resolves.toEqual({ success: true });
    const tool = '    count() -> CountResult { message: string, count: number } | ToolError { error: string, detail: string }';
    expect(out[0]).toBe(
      ['server first', '  toolset counting', tool, '  1 tool follows the contract.', 'server second', '  toolset counting', tool, '  1 tool follows the contract.'].join('\n'),
    );
    expect(out.slice(1).join('\n')).toMatch(/^server first tools\/list: 1 tool, [\d,]+ bytes \(~[\d,]+ tokens\); in discovery mode [\d,]+ bytes/m);
  });

  it("fails a server whose tools/list is over its listBudgetTokens, saying how to fit it", async () => {
    const entry = 'tools/workspace-plugin/test/fixtures/over-budget-app/servers.js';
    await expect(appContractExecutor({ entry }, context('budget-app', 'apps/budget-app'))).resolves.toEqual({ success: false });
    expect(out.join('\n')).toContain('within its listBudgetTokens of 100,000');
    // Measured here, independently: the tools/list answer a client of the built server receives.
    const { buildServers } = require('../fixtures/over-budget-app/servers.js');
    const [, cramped] = buildServers();
    const tokens = Math.round(Buffer.byteLength(JSON.stringify({ tools: [...cramped.catalog.tools.values()].map((t: { descriptor: unknown }) => t.descriptor) })) / 4);
    expect(err.join('\n')).toContain(`Server 'cramped': tools/list is ~${tokens.toLocaleString('en')} tokens, over its listBudgetTokens of 20. To fit: split the groups that do not fit alone (counting ~${tokens.toLocaleString('en')}) into smaller toolsets.`);
  });

  it('says how to lay out an app that has no built servers.js', async () => {
    await expect(appContractExecutor({}, context('nowhere', 'apps/nowhere'))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('An app keeps its server definitions in src/servers.ts (export function buildServers())');
  });

  it("records what an app serves through curate() in its own contract, and classifies the app's next curation by the same rules", async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'curating-app-'));
    const entry = join(__dirname, '../fixtures/curating-app/servers.js');
    const app = join(workspace, 'apps/support');
    mkdirSync(app, { recursive: true });
    const version = (v: string) => writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'support', version: v }));
    const run = (update = false) => appContractExecutor({ entry, update }, executorContext('support', 'apps/support', workspace));
    try {
      version('1.0.0');
      await expect(run()).resolves.toEqual({ success: true });
      // Only the server with a curated toolset has an app contract; the other's tools are the library's own.
      expect(existsSync(join(app, 'contract.plain.json'))).toBe(false);
      const recorded = JSON.parse(readFileSync(join(app, 'contract.support.json'), 'utf-8'));
      expect(recorded.version).toBe('1.0.0');
      expect(recorded.tools.map((tool: { name: string; description: string }) => [tool.name, tool.description])).toEqual([['kb_search', 'Search the support knowledge base.']]);
      expect(Object.keys(recorded.tools[0].inputSchema.properties)).toEqual(['question', 'limit']);
      await expect(run()).resolves.toEqual({ success: true });

      process.env['CURATING_APP_VARIANT'] = 'hidden';
      await expect(run()).resolves.toEqual({ success: false });
      expect(out.join('\n')).toContain('1 change since apps/support/contract.support.json (version 1.0.0): 1 breaking');
      expect(out.join('\n')).toMatch(/kb_search.*limit/);
      expect(err.join('\n')).toContain('nx run support:contract --update');
      version('2.0.0');
      await expect(run(true)).resolves.toEqual({ success: true });
      expect(Object.keys(JSON.parse(readFileSync(join(app, 'contract.support.json'), 'utf-8')).tools[0].inputSchema.properties)).toEqual(['question']);

      // A new name in curate() is a rename of the same method, with the argument's new name under it.
      process.env['CURATING_APP_VARIANT'] = 'renamed';
      out.length = 0;
      await expect(run()).resolves.toEqual({ success: false });
      const report = out.join('\n');
      expect(report).toMatch(/kb_search: tool renamed to 'kb_find_articles' \(tool-renamed, breaking\)/);
      expect(report).toMatch(/kb_find_articles \(was kb_search\): input \/properties\/question removed \(input-property-removed, breaking\)/);
      expect(report).toMatch(/kb_find_articles \(was kb_search\): input \/properties\/terms added \(required\)/);
      expect(report).not.toMatch(/tool-(added|removed)/);
    } finally {
      delete process.env['CURATING_APP_VARIANT'];
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
