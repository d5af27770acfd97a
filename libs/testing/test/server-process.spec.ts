import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logMessage, startServerProcess } from '../src';

/** A stand-in for a built app: serves on the port it is given and logs as `startApp` does. */
const SERVER = `
const http = require('node:http');
const log = (message, fields) => process.stderr.write(JSON.stringify({ level: 'info', message, ...fields }) + '\\n');
const server = http.createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), process.env.HOST, () => {
  log('serving over streamable HTTP', { origin: 'http://' + process.env.HOST + ':' + server.address().port });
});
process.once('SIGTERM', () => { log('draining in-flight calls before exit'); server.close(() => process.exit(0)); });
`;

describe('startServerProcess', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-process-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = (name: string, code: string) => {
    writeFileSync(join(dir, name), code);
    return join(dir, name);
  };

  it('starts the app on a free loopback port, waits for its log lines, and stops it with SIGTERM', async () => {
    const app = await startServerProcess(script('app.cjs', SERVER));
    expect(app.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(app.origin)).text()).toBe('ok');
    app.child.kill('SIGTERM');
    await app.stderrLines(logMessage('draining in-flight calls before exit'));
    expect(await app.exited).toBe(0);
  });

  it('fails with the log when the app exits before serving', async () => {
    await expect(startServerProcess(script('broken.cjs', "process.stderr.write('PORT is taken\\n'); process.exit(1);"))).rejects.toThrow(/exited with 1 before serving:\nPORT is taken/);
  });
});
