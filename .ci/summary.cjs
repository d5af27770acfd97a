// Sums the per-project Jest summaries written by tools/jest/summary-reporter.cjs into CI's closing
// line, after each project's duration and the slowest tests of the whole run.
const fs = require('node:fs');
const path = require('node:path');

const dir = path.resolve(__dirname, '../.reports/jest');
const totals = { passed: 0, failed: 0, skipped: 0 };
const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json')) : [];
const summaries = files.map((file) => JSON.parse(fs.readFileSync(path.join(dir, String(file)), 'utf8')));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

console.log('Slowest tests:');
for (const test of summaries.flatMap((s) => s.slowest ?? []).sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`  ${seconds(test.ms)}  ${test.name}`);
console.log('Projects:');
for (const summary of summaries) {
  const took = summary.durationMs === undefined ? '' : ` in ${seconds(summary.durationMs)}`;
  console.log(`  ${summary.project}: ${summary.passed} passed, ${summary.failed} failed${took}`);
  for (const key of Object.keys(totals)) totals[key] += summary[key] ?? 0;
}
// Last before the closing line, so the tail of CI's output names what failed and why.
const failures = summaries.flatMap((s) => (s.failures ?? []).map((f) => ({ ...f, project: s.project })));
if (failures.length > 0) {
  console.log('Failed tests:');
  for (const failure of failures) console.log(`  ${failure.project}: ${failure.name}\n    ${failure.why.slice(0, 600)}`);
}
if (process.argv.includes('--failed-run') && totals.failed === 0) totals.failed = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
