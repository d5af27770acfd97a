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
    expect(out.join('\n')).toBe(
      ['server first', '  toolset counting', tool, '  1 tool follows the contract.', 'server second', '  toolset counting', tool, '  1 tool follows the contract.'].join('\n'),
    );
  });

  it('says how to lay out an app that has no built servers.js', async () => {
    await expect(appContractExecutor({}, context('nowhere', 'apps/nowhere'))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('An app keeps its server definitions in src/servers.ts (export function buildServers())');
  });
});
