import contractExecutor from '../../src/executors/contract/executor';
import { capturedConsole, executorContext } from '../support/executor-context';

const fixture = (name: string) => `tools/workspace-plugin/test/fixtures/${name}/index.js`;
const context = (projectName: string, root = `libs/toolsets/${projectName}`) => executorContext(projectName, root);

describe('contract executor', () => {
  const { out, err } = capturedConsole();

  it('passes a conforming toolset and prints each tool with its output arms', async () => {
    await expect(contractExecutor({ entry: fixture('conforming-toolset') }, context('counting'))).resolves.toEqual({ success: true });
    expect(out.join('\n')).toBe(
      [
        'toolset counting',
        '  count() -> CountResult { message: string, count: number } | ToolError { error: string, detail: string }',
        '1 tool follows the contract.',
      ].join('\n'),
    );
  });

  it('fails a toolset with a deliberate contract violation, listing every violation with its fix', async () => {
    await expect(contractExecutor({ entry: fixture('broken-toolset') }, context('broken'))).resolves.toEqual({ success: false });
    const message = err.join('\n');
    expect(message).toContain("Server 'broken' refused to start: 2 contract violations.");
    expect(message).toContain("[toolset 'broken' > tool 'list'] The tool has no description");
    expect(message).toContain("'items' of 'ListResult' reflects as Array");
    expect(message).toContain('Fix: give @Field an explicit type');
  });

  it('fails a library that exports no toolset, saying what to export', async () => {
    await expect(contractExecutor({ entry: fixture('no-toolset') }, context('empty'))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain("exports no @Toolset class");
  });

  it('fails when the toolset was not built, saying to build it', async () => {
    await expect(contractExecutor({}, context('ghost'))).resolves.toEqual({ success: false });
    expect(err.join('\n')).toContain('libs/toolsets/ghost/dist/index.js does not exist: build the toolset first (nx run ghost:build)');
  });
});
