// Writes each project's pass/fail counts, its duration and its slowest tests to
// .reports/jest/<project>[-<target>].json, so CI can print one "N passed, N failed" line for the
// whole workspace, each project's time and the slowest tests (Nx restores the file on a cache hit).
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '../..');
/** How many of a project's slowest tests its summary keeps. */
const SLOWEST = 10;

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const project =
      process.env.NX_TASK_TARGET_PROJECT ?? path.relative(workspaceRoot, this.rootDir).replace(/[\\/]/g, '-');
    // Same path as the target's Nx output: `{projectName}.json` for `test`, `{projectName}-<target>.json` otherwise.
    const target = process.env.NX_TASK_TARGET_TARGET;
    const name = target && target !== 'test' ? `${project}-${target}` : project;
    const file = path.join(workspaceRoot, '.reports/jest', `${name}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tests = results.testResults.flatMap((suite) =>
      suite.testResults.map((test) => ({ name: `${path.relative(workspaceRoot, suite.testFilePath)} › ${test.fullName}`, ms: test.duration ?? 0 })),
    );
    const summary = {
      project: name,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      durationMs: Date.now() - results.startTime,
      slowest: tests.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST),
    };
    fs.writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  }
}

module.exports = SummaryReporter;
