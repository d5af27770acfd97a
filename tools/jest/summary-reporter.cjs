// Writes each project's pass/fail counts to .reports/jest/<project>.json, so CI can print one
// "N passed, N failed" line for the whole workspace (Nx restores the file on a cache hit).
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '../..');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const project =
      process.env.NX_TASK_TARGET_PROJECT ?? path.relative(workspaceRoot, this.rootDir).replace(/[\\/]/g, '-');
    // Same path as the test target's Nx output, `{projectName}.json`: '@toolsets/core' nests a folder.
    const file = path.join(workspaceRoot, '.reports/jest', `${project}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const summary = {
      project,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    fs.writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  }
}

module.exports = SummaryReporter;
