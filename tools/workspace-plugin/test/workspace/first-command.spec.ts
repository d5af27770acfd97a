import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');

describe("a newcomer's first nx command in a terminal", () => {
  it('asks nothing and writes nothing: the analytics choice is committed in nx.json', () => {
    const before = readFileSync(join(root, 'nx.json'), 'utf-8');
    // `script` gives nx a terminal, as a newcomer's shell does: Nx prompts only there, and waits for an answer.
    const run = spawnSync('script', ['-qec', 'npx nx show projects --json', '/dev/null'], {
      cwd: root,
      encoding: 'utf-8',
      timeout: 60_000,
      env: { ...process.env, CI: '', NX_DAEMON: 'false', NX_NO_CLOUD: 'true', TERM: 'xterm' },
    });
    expect(run.stdout).not.toContain('Share usage data');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('"@toolsets/core"');
    expect(readFileSync(join(root, 'nx.json'), 'utf-8')).toBe(before);
  });
});
