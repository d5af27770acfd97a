import type { ExecutorContext } from '@nx/devkit';
import { join } from 'node:path';

export const workspaceRoot = join(__dirname, '../../../..');

/** The context Nx hands an executor for one project of this workspace. */
export function executorContext(projectName: string, root: string, workspace = workspaceRoot): ExecutorContext {
  return {
    root: workspace,
    cwd: workspace,
    isVerbose: false,
    projectName,
    projectsConfigurations: { version: 2, projects: { [projectName]: { root } } },
  } as unknown as ExecutorContext;
}

/** Captures console.log and console.error lines for the duration of each test. */
export function capturedConsole(): { out: string[]; err: string[] } {
  const captured = { out: [] as string[], err: [] as string[] };
  beforeEach(() => {
    captured.out.length = 0;
    captured.err.length = 0;
    jest.spyOn(console, 'log').mockImplementation((...args) => void captured.out.push(args.join(' ')));
    jest.spyOn(console, 'error').mockImplementation((...args) => void captured.err.push(args.join(' ')));
  });
  afterEach(() => jest.restoreAllMocks());
  return captured;
}
