import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKSPACE_ROOT = join(__dirname, '../../../..');

// Two test files that load the same modules, run one after the other in one process, as a Jest
// worker runs them: what the second gets from the first's compile (tools/jest/code-cache-runtime.cjs)
// must be code only, never a module's state; errors must point at the lines written; and a
// module's dynamic import must be answered as Jest's own compile answers it (without
// --experimental-vm-modules, Node's refusal naming that flag), in the second file as in the first.
const shared = `export const count = { n: 0 };

export function where(): string {
  return new Error('here').stack!.split('\\n')[1]!;
}
`;
const counter = `let n = 0;
module.exports = { next: () => ++n, fail() { throw new Error('counter failed'); } };
`;
const dynamic = `module.exports = () => import('node:path').then((path) => typeof path.join);
`;
const spec = `import { count, where } from './shared';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const counter = require('./counter.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynamic = require('./dynamic.cjs');

it('loads its own modules, reports true lines and imports through Jest', async () => {
  count.n += 1;
  expect(count.n).toBe(1);
  expect(counter.next()).toBe(1);
  expect(where()).toMatch(/shared\\.ts:4:\\d+\\)$/);
  let stack = '';
  try { counter.fail(); } catch (error) { stack = (error as Error).stack ?? ''; }
  expect(stack).toMatch(/counter\\.cjs:2:\\d+\\)/);
  await expect(dynamic()).rejects.toThrow('A dynamic import callback was invoked without --experimental-vm-modules');
});
`;

function runJest(root: string, environment: NodeJS.ProcessEnv): { status: number | null; report: { numPassedTests: number; numFailedTests: number; testResults: { message: string }[] }; stderr: string } {
  const run = spawnSync(process.execPath, [join(WORKSPACE_ROOT, 'node_modules/jest/bin/jest.js'), '-c', join(root, 'jest.config.cjs'), '-i', '--json', '--ci'], {
    cwd: root,
    encoding: 'utf-8',
    env: environment,
  });
  // No report when Jest could not start: say what it printed instead.
  if (!run.stdout.trim().startsWith('{')) throw new Error(`Jest gave no report (exit ${run.status}):\n${run.stderr.slice(-2000)}`);
  return { status: run.status, report: JSON.parse(run.stdout), stderr: run.stderr };
}

describe("the test run's Jest loader", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'jest-runtime-'));
    symlinkSync(join(WORKSPACE_ROOT, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'jest.config.cjs'), `module.exports = { preset: ${JSON.stringify(join(WORKSPACE_ROOT, 'jest.preset.js'))}, rootDir: __dirname, reporters: ['default'] };\n`);
    writeFileSync(join(root, 'shared.ts'), shared);
    writeFileSync(join(root, 'counter.cjs'), counter);
    writeFileSync(join(root, 'dynamic.cjs'), dynamic);
    writeFileSync(join(root, 'first.spec.ts'), spec);
    writeFileSync(join(root, 'second.spec.ts'), spec);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['compiled once and shared between test files', {}],
    ['compiled anew in each test file (TOOLSETS_JEST_NO_CODE_CACHE=1)', { TOOLSETS_JEST_NO_CODE_CACHE: '1' }],
  ])('gives each test file fresh modules, true line numbers and Jest\'s dynamic imports: %s', (_name, extra) => {
    const { status, report, stderr } = runJest(root, { ...process.env, ...extra });
    const failures = report.testResults.map((result) => result.message.trim()).filter(Boolean).join('\n');
    expect({ status, passed: report.numPassedTests, failed: report.numFailedTests, failures }).toEqual({ status: 0, passed: 2, failed: 0, failures: '' });
    expect(stderr).toContain('2 passed');
  });
});
