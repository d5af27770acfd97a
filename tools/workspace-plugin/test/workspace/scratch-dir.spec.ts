import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORKSPACE_ROOT = join(__dirname, '../../../..');
/** statfs's f_type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
const onTmpfs = (dir: string) => existsSync(dir) && statfsSync(dir).type === TMPFS_MAGIC;

/** tools/test-run/scratch-dir.sh for a run of process `run`, with `TOOLSETS_TEST_TMPFS` set to `tmpfs`: the folder it printed, or ''. */
function scratchDir(run: number, tmpfs: string): string {
  const result = spawnSync('bash', [join(WORKSPACE_ROOT, 'tools/test-run/scratch-dir.sh'), String(run)], { env: { ...process.env, TOOLSETS_TEST_TMPFS: tmpfs }, encoding: 'utf-8' });
  expect(result.status).toBe(0);
  return result.stdout.trim();
}

/** The pid of a process that has ended. */
function endedPid(): number {
  const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf-8' });
  return Number(ended.stdout);
}

describe("npm test's scratch folder (tools/test-run/scratch-dir.sh)", () => {
  it('uses no folder where it was told not to, or where the folder is not a tmpfs', () => {
    expect(scratchDir(process.pid, 'off')).toBe('');
    expect(scratchDir(process.pid, '/proc')).toBe('');
  });

  // /dev/shm is a tmpfs on Linux machines with systemd or Docker's defaults; where it is not, the
  // script uses none, and that is what the test checks there.
  const parentTmpfs = '/dev/shm';
  it('makes a folder on the tmpfs for the run, and removes those left by runs that are gone, keeping those of live runs', () => {
    if (!onTmpfs(parentTmpfs)) {
      expect(scratchDir(process.pid, parentTmpfs)).toBe('');
      return;
    }
    const tmpfs = mkdtempSync(join(parentTmpfs, 'scratch-dir-spec-'));
    try {
      const live = scratchDir(process.pid, tmpfs);
      expect(live.startsWith(join(tmpfs, 'toolsets-test-'))).toBe(true);
      expect(readFileSync(join(live, '.run-pid'), 'utf-8').trim()).toBe(String(process.pid));

      const gone = join(tmpfs, 'toolsets-test-gone');
      mkdirSync(gone);
      writeFileSync(join(gone, '.run-pid'), String(endedPid()));
      writeFileSync(join(gone, 'left.txt'), 'a file a killed run left');
      // No run recorded yet: another run between making its folder and writing its pid.
      const making = join(tmpfs, 'toolsets-test-making');
      mkdirSync(making);

      const next = scratchDir(process.pid, tmpfs);
      expect(existsSync(gone)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(making)).toBe(true);
      expect(next).not.toBe(live);
    } finally {
      rmSync(tmpfs, { recursive: true, force: true });
    }
  });
});
