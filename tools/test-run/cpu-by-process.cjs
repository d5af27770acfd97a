#!/usr/bin/env node
// Where a command's CPU goes, process by process: `node tools/test-run/cpu-by-process.cjs -- <command…>`
// (e.g. `-- bash .ci/run` in a fresh clone). The kernel's process accounting (`accton`, Debian's
// `acct` package; root) records every process that ends, with its CPU time, however short it
// lived; a sampler reads each live process's command line and folder from /proc twice a second, so
// a record can be named (`nx run-many …`, a Jest worker, an app the tests started). Prints CPU by
// kind of process and the heaviest command lines. docs/contributing.md ("Where the time went") has
// what it found. Numbers are CPU-seconds (user + system). `CPU_BY_PROCESS_RECORDS=<file>` also writes
// every process as a JSON line (pid, ppid, cpu, comm, and cmd/cwd where the sampler saw them). Accounting sees every process of the
// machine, not only the command's: run it on an otherwise idle machine. A process still running
// when the command ends is not counted.
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const separator = process.argv.indexOf('--');
const command = separator === -1 ? [] : process.argv.slice(separator + 1);
if (command.length === 0) {
  console.error('Usage: node tools/test-run/cpu-by-process.cjs -- <command> [args…]');
  process.exit(2);
}
for (const tool of ['accton', 'dump-acct']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`${tool} is not installed: apt-get install -y acct (process accounting needs root).`);
    process.exit(2);
  }
}

/** Kinds of process, by command line, first match wins. */
const KINDS = [
  ['Nx', /nx\.js|\.bin\/nx |run-executor|plugin-worker|npx nx|npm exec nx/],
  ['Jest worker', /jest-worker\/build\/processChild/],
  ['Jest (main process, and the projects that run in band)', /\.bin\/jest|jest\.js/],
  ['TypeScript 7 (native)', /typescript-linux-x64|@typescript\/native/],
  ['TypeScript (JavaScript: 5.9, 6.0, and tsc.cjs)', /\/tsc |typescript\/bin\/tsc|tsc\.cjs/],
  ['ESLint', /eslint/],
  ['npm', /(^|\/)npm( |$)|npm-cli|npx/],
  ['apps and servers the tests start', /dist\/main\.js|server\.cjs|-server --stdio|-server$/],
  ['Chromium', /chromium/],
  ['build scripts (tools/build)', /tools\/build\//],
];

const ledger = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-by-process-')), 'pacct');
fs.writeFileSync(ledger, '');
execFileSync('accton', [ledger], { stdio: 'ignore' });

/** pid → { cmd, cwd }, as last seen. */
const seen = new Map();
function sample() {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || seen.has(Number(entry))) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf-8').split('\0').join(' ').trim();
      if (cmd) seen.set(Number(entry), { cmd, cwd: fs.readlinkSync(`/proc/${entry}/cwd`) });
    } catch {
      // Gone before it could be read: accounting still has its CPU, by its short name.
    }
  }
}
const sampler = setInterval(sample, 500);

const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code, signal) => {
  clearInterval(sampler);
  execFileSync('accton', ['off'], { stdio: 'ignore' });
  report(ledger);
  fs.rmSync(path.dirname(ledger), { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

function report(file) {
  // dump-acct: command|version|user|system|elapsed|uid|gid|memory|io|pid|ppid|… in hundredths of a second.
  const records = execFileSync('dump-acct', [file], { encoding: 'utf-8', maxBuffer: 256 * 1024 * 1024 })
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('|').map((field) => field.trim()))
    .map((fields) => ({ comm: fields[0], cpu: (Number(fields[2]) + Number(fields[3])) / 100, pid: Number(fields[9]), ppid: Number(fields[10]) }));
  // Every record, for a closer look (e.g. CPU per Nx target with its descendants): one JSON line each.
  if (process.env.CPU_BY_PROCESS_RECORDS) {
    const rows = records.map((record) => JSON.stringify({ ...record, ...seen.get(record.pid) }));
    fs.writeFileSync(process.env.CPU_BY_PROCESS_RECORDS, `${rows.join('\n')}\n`);
  }
  const total = records.reduce((sum, record) => sum + record.cpu, 0);
  const byKind = new Map();
  const byCommand = new Map();
  for (const record of records) {
    const cmd = seen.get(record.pid)?.cmd ?? '';
    const kind = KINDS.find(([, pattern]) => pattern.test(cmd))?.[0] ?? `other (${cmd ? cmd.split(' ')[0].split('/').pop() : record.comm})`;
    const sum = byKind.get(kind) ?? { cpu: 0, count: 0 };
    byKind.set(kind, { cpu: sum.cpu + record.cpu, count: sum.count + 1 });
    // Temporary folders and ports differ from process to process: one line for one kind of command.
    const line = (cmd || `[${record.comm}]`).replace(/\/tmp\/[^/ ]*?-[A-Za-z0-9]{6}(?=[/ ]|$)/g, '/tmp/…').replace(/\b\d{4,5}\b/g, '#').slice(0, 140);
    const same = byCommand.get(line) ?? { cpu: 0, count: 0 };
    byCommand.set(line, { cpu: same.cpu + record.cpu, count: same.count + 1 });
  }
  const row = (cpu, count, label) => `${cpu.toFixed(1).padStart(8)} ${String(count).padStart(6)}  ${label}`;
  const lines = [
    '',
    `CPU by kind of process: ${total.toFixed(1)} CPU-s over ${records.length} processes`,
    `${'CPU-s'.padStart(8)} ${'procs'.padStart(6)}  kind`,
    ...[...byKind].sort((a, b) => b[1].cpu - a[1].cpu).map(([kind, { cpu, count }]) => row(cpu, count, kind)),
    '',
    'Heaviest command lines:',
    ...[...byCommand].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 25).map(([line, { cpu, count }]) => row(cpu, count, line)),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}
