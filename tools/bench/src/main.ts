// `npm run bench`: every scenario in its own process, then one report on stdout and in BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { catalogReport } from './scenarios/catalog';
import { markdownTable, type ScenarioResult } from './harness/report';

const workspaceRoot = resolve(__dirname, '../../..');
const scenarioScript = join(__dirname, 'scenario.js');
const SIZES = [10, 100, 1000, 5000];

function runScenario<T>(...args: string[]): T {
  process.stderr.write(`bench: ${args.join(' ')} ...\n`);
  const started = Date.now();
  // As deployed: NODE_ENV=production turns the development-only dropped-key warnings off.
  const env = { ...process.env, NODE_ENV: 'production' };
  const run = spawnSync(process.execPath, ['--expose-gc', scenarioScript, ...args], { encoding: 'utf-8', env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (run.status !== 0 || !line) throw new Error(`scenario ${args.join(' ')} failed (exit ${run.status}):\n${run.stdout}`);
  process.stderr.write(`bench: ${args.join(' ')} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return JSON.parse(line.slice('RESULT '.length)) as T;
}

function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, ${type()} ${release()}, Node ${process.version}`;
}

function render(results: ScenarioResult[], started: Date, seconds: number): string {
  const verdicts = results.flatMap((r) => r.verdicts.map((v) => [v.target, v.measured, v.outcome === 'miss' ? '**miss**' : v.outcome]));
  const sections = results.map((r) =>
    [`## ${r.title}`, '', r.method, '', markdownTable(r.headers, r.rows), ...(r.notes?.length ? ['', ...r.notes.map((n) => `- ${n}`)] : [])].join('\n'),
  );
  const history = join(workspaceRoot, 'tools/bench/OPTIMIZATIONS.md');
  return [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${seconds.toFixed(0)} s). Machine: ${machine()}.`,
    '',
    'Absolute times on a shared machine are noise; the ratios, measured side by side in the same run, are the result.',
    'A ratio target is pass or miss only when every round agrees; when the rounds straddle it, the verdict is "within noise".',
    'Reproduce with `npm ci && npm run bench -- --write` (it builds first); each scenario runs in its own process.',
    '',
    '## Targets',
    '',
    markdownTable(['target', 'measured', 'verdict'], verdicts),
    '',
    ...sections.flatMap((s) => [s, '']),
    ...(existsSync(history) ? [readFileSync(history, 'utf-8').trim(), ''] : []),
  ].join('\n');
}

function main(): void {
  const write = process.argv.includes('--write');
  const unknown = process.argv.slice(2).filter((arg) => arg !== '--write');
  if (unknown.length > 0) throw new Error(`Unknown argument(s): ${unknown.join(' ')}. Usage: npm run bench [-- --write]`);
  const started = new Date();
  const results: ScenarioResult[] = [];
  results.push(runScenario<ScenarioResult>('per-call'));
  results.push(runScenario<ScenarioResult>('rich-result'));
  results.push(catalogReport(SIZES.map((size) => runScenario<Record<string, number>>('catalog-size', String(size)))));
  results.push(runScenario<ScenarioResult>('http'));
  results.push(runScenario<ScenarioResult>('memory'));
  results.push(runScenario<ScenarioResult>('stall'));
  results.push(runScenario<ScenarioResult>('openapi-scale'));
  results.push(runScenario<ScenarioResult>('openapi-documents'));
  results.push(runScenario<ScenarioResult>('mock-calls'));
  results.push(runScenario<ScenarioResult>('discovery'));
  results.push(runScenario<ScenarioResult>('auth'));
  results.push(runScenario<ScenarioResult>('telemetry'));
  results.push(runScenario<ScenarioResult>('upstream-transport'));
  results.push(runScenario<ScenarioResult>('upstream-mcp'));
  results.push(runScenario<ScenarioResult>('upstream-leg'));
  results.push(runScenario<ScenarioResult>('dev-loop'));
  results.push(runScenario<ScenarioResult>('tasks'));
  results.push(runScenario<ScenarioResult>('views'));
  results.push(runScenario<ScenarioResult>('code-mode'));
  results.push(runScenario<ScenarioResult>('code-mode-search'));
  results.push(runScenario<ScenarioResult>('code-mode-held-out'));
  results.push(runScenario<ScenarioResult>('curated-catalogs'));
  results.push(runScenario<ScenarioResult>('catalog-modes'));
  const report = render(results, started, (Date.now() - started.getTime()) / 1000);
  // Only on request: a casual run must not dirty the tree.
  if (write) writeFileSync(join(workspaceRoot, 'BENCHMARKS.md'), report);
  process.stdout.write(`${report}\n`);
  const verdicts = results.flatMap((r) => r.verdicts);
  const missed = verdicts.filter((v) => v.outcome === 'miss');
  const noisy = verdicts.filter((v) => v.outcome === 'within noise');
  process.stderr.write(
    missed.length
      ? `bench: ${missed.length} target(s) missed: ${missed.map((v) => v.target).join('; ')}\n`
      : `bench: every target met${noisy.length ? ` or within noise (${noisy.length})` : ''}${write ? '; BENCHMARKS.md written' : '; add -- --write to update BENCHMARKS.md'}\n`,
  );
  // A real miss fails the run; within noise does not.
  if (missed.length > 0) process.exitCode = 1;
}

main();
