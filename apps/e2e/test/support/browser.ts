import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { workspaceRoot } from './server-process';

/** Debian's Chromium (installed by tools/chromium/ensure-chromium.sh when missing), headless, driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  execFileSync('bash', [join(workspaceRoot, 'tools/chromium/ensure-chromium.sh')], { stdio: 'inherit' });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Where tests leave what a reader should look at (screenshots): `.reports/` at the workspace root, ignored by git. */
export const reportPath = (name: string) => join(workspaceRoot, '.reports', name);
