// Sums the per-project Jest summaries written by tools/jest/summary-reporter.cjs into CI's closing line.
const fs = require('node:fs');
const path = require('node:path');

const dir = path.resolve(__dirname, '../.reports/jest');
const totals = { passed: 0, failed: 0, skipped: 0 };
const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json')) : [];
for (const file of files) {
  const summary = JSON.parse(fs.readFileSync(path.join(dir, String(file)), 'utf8'));
  console.log(`  ${summary.project}: ${summary.passed} passed, ${summary.failed} failed`);
  for (const key of Object.keys(totals)) totals[key] += summary[key] ?? 0;
}
if (process.argv.includes('--failed-run') && totals.failed === 0) totals.failed = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
