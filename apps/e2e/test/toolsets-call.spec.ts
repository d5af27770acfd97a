import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestIssuer, type TestIssuer } from '@toolsets/testing';
import { appMain, startServerProcess, workspaceRoot, type ServerProcess } from './support/server-process';

const CALL = join(workspaceRoot, 'libs/testing/dist/bin/toolsets-call.js');
const KEY = { TOOLSETS_CALL_HEADERS: 'x-reports-key: call-cli-key' };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs toolsets-call as a user does: `answers` are the lines typed at its questions (piped in), and
 * `interruptWhen` sends Ctrl-C (SIGINT) once its stderr shows the pattern.
 */
function runCall(args: string[], options: { env?: Record<string, string>; answers?: string[]; interruptWhen?: RegExp } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CALL, ...args], { env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`toolsets-call did not end; it printed:\n${stdout}\n${stderr}`))), 30_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.interruptWhen?.test(stderr) && !interrupted) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    if (options.answers) child.stdin.end(options.answers.map((line) => `${line}\n`).join(''));
    else if (!options.interruptWhen) child.stdin.end();
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('toolsets-call: the demo reports, as a newcomer tries tasks from the shell', () => {
  let stateless: ServerProcess;
  let sessions: ServerProcess;
  beforeAll(async () => {
    [stateless, sessions] = await Promise.all([startServerProcess(appMain('demo-server')), startServerProcess(appMain('demo-server'), { MCP_SESSIONS: 'on' })]);
  });
  afterAll(async () => {
    await Promise.all([stateless?.stop(), sessions?.stop()]);
  });
  const reports = (server: ServerProcess) => `${server.origin}/reports/mcp`;

  it('runs a 2026-07-28 task: prints its status, asks its question here, and prints the typed result', async () => {
    const run = await runCall([reports(stateless), 'render_report', '{"title":"Q3","pages":2}', '--task', '--era', '2026-07-28'], { env: KEY, answers: ['y', 'y', 'email'] });
    expect([run.code, JSON.parse(run.stdout)]).toEqual([0, { message: 'Rendered "Q3" (2 pages) and published it by email.', title: 'Q3', pages: 2, publishedTo: 'email' }]);
    expect(run.stderr).toMatch(/task \S+ created \(Ctrl-C cancels it\)/);
    expect(run.stderr).toMatch(/task \S+ input_required/);
    expect(run.stderr).toContain('? Publish "Q3" (2 pages)?');
    expect(run.stderr).toContain('channel (Where to publish it.) (email | archive)');
    expect(run.stderr).toMatch(/task \S+ completed/);
  });

  it('runs a 2025-11-25 task over a server with sessions, the question arriving as a request tied to the task', async () => {
    const run = await runCall([reports(sessions), 'render_report', '{"title":"Old","pages":1}', '--task', '--era', '2025-11-25'], { env: KEY, answers: ['', 'n', 'archive'] });
    expect([run.code, JSON.parse(run.stdout)]).toEqual([0, { message: 'Rendered "Old" (1 pages); not published.', title: 'Old', pages: 1 }]);
    expect(run.stderr).toMatch(/task \S+ completed/);
  });

  it('says when a 2025-11-25 task asks over stateless HTTP, where the question cannot reach it, and Ctrl-C cancels the task', async () => {
    const run = await runCall([reports(stateless), 'render_report', '{"title":"Stuck","pages":1}', '--task', '--era', '2025-11-25'], { env: KEY, interruptWhen: /has not reached this client/ });
    expect(run.stderr).toContain('a 2025-11-25 task asks only over a server that keeps sessions, MCP_SESSIONS=on; --era 2026-07-28 answers it here');
    expect(run.stderr).toMatch(/task \S+ cancelled/);
    expect([run.code, run.stdout]).toEqual([130, '']);
  });

  it('answers a question in a blocking call too (2026-07-28 input_required rounds), and a decline ends in the tool error, exit 1', async () => {
    const run = await runCall([reports(stateless), 'render_report', '{"title":"Now","pages":1}', '--era', '2026-07-28'], { env: KEY, answers: ['decline'] });
    expect([run.code, JSON.parse(run.stdout)]).toEqual([1, { error: 'not_published', detail: 'The user chose to decline; the report was rendered but not published.' }]);
  });

  it('ends at the end of input with a cancel, never waiting for a line that will not come', async () => {
    const run = await runCall([reports(stateless), 'render_report', '{"title":"Eof","pages":1}', '--task'], { env: KEY, answers: [] });
    expect([run.code, JSON.parse(run.stdout)]).toEqual([1, { error: 'not_published', detail: expect.stringContaining('The user chose to cancel') }]);
  });

  it('refuses an unknown --era with the ones it speaks, exit 2', async () => {
    const era = await runCall([reports(stateless), 'tally', '{"items":3}', '--era', '2024-11-05']);
    expect([era.code, era.stderr.trim()]).toEqual([2, '--era "2024-11-05" is not a revision this client speaks: give one of auto, 2026-07-28, 2025-11-25.']);
    const exact = await runCall([reports(stateless), 'tally', '{"items":3}', '--exact-scopes']);
    expect(exact.code).toBe(2);
    expect(exact.stderr).toContain('--exact-scopes calls with the scopes of the token the client gets: set TOOLSETS_CALL_CLIENT_ID');
  });
});

describe('toolsets-call with OAuth client credentials from the environment', () => {
  let issuer: TestIssuer;
  let demo: ServerProcess;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    issuer.registerClient({ clientId: 'shell', clientSecret: 'shell-secret', scopes: [], subject: 'shell-user' });
    demo = await startServerProcess(appMain('demo-server'), { AUTH_ISSUER: issuer.issuer, AUTH_MOUNTS: 'reports' });
  });
  afterAll(async () => {
    await demo?.stop();
    await issuer?.close();
  });

  it('gets a token for the resource and sends it on every request of a 2026-07-28 task, the raw task methods included', async () => {
    const oauth = { TOOLSETS_CALL_CLIENT_ID: 'shell', TOOLSETS_CALL_CLIENT_SECRET: 'shell-secret', TOOLSETS_CALL_ISSUER: issuer.issuer };
    const run = await runCall([`${demo.origin}/reports/mcp`, 'render_report', '{"title":"Signed","pages":1}', '--task', '--era', '2026-07-28'], { env: { ...KEY, ...oauth }, answers: ['y', 'y', 'archive'] });
    expect([run.code, JSON.parse(run.stdout || '{}')]).toEqual([0, expect.objectContaining({ publishedTo: 'archive' })]);
    expect(issuer.tokenRequests.at(-1)).toMatchObject({ clientId: 'shell', grantType: 'client_credentials', resource: `${demo.origin}/reports/mcp` });
    const anonymous = await runCall([`${demo.origin}/reports/mcp`, 'tally', '{"items":2}'], { env: KEY });
    expect([anonymous.code, anonymous.stderr]).toEqual([1, expect.stringContaining('The server wants a token')]);
    expect(anonymous.stderr).toContain('TOOLSETS_CALL_CLIENT_ID');
  });
});

describe('npm run call', () => {
  it('runs the built bin in its own process without asking Nx, when the build is newer than the sources (tools/build/run-bin.cjs)', () => {
    const help = spawnSync(process.execPath, [join(workspaceRoot, 'tools/build/run-bin.cjs'), 'libs/testing', 'toolsets-call', '--help'], { encoding: 'utf-8' });
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('Usage: toolsets-call <MCP URL> <tool>')]);
    expect(help.stderr).not.toContain('building');
  });
});
