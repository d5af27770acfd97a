// Writes each project's pass/fail counts, its duration and its slowest tests to
// .reports/jest/<project>[-<target>].json, so CI can print one "N passed, N failed" line for the
// whole workspace, each project's time, the slowest tests and every failed test with the first lines of its error (Nx restores the file on a cache hit).
const fs = require('node:fs');
const path = require('node:path');

const workspaceRoot = path.resolve(__dirname, '../..');
/** How many of a project's slowest tests its summary keeps. */
const SLOWEST = 10;

/** The first lines of a failure, without colour codes: enough to tell a flake from a break in CI's tail. */
function firstLines(text, lines = 4) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => line.trim()).filter(Boolean).slice(0, lines).join(' | ');
}

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
      suite.testResults.map((test) => ({
        name: `${path.relative(workspaceRoot, suite.testFilePath)} › ${test.fullName}`,
        ms: test.duration ?? 0,
        status: test.status,
        why: firstLines(test.failureMessages.join('\n')),
      })),
    );
    // A suite that failed to run has no test of its own: its error stands for it.
    const broken = results.testResults
      .filter((suite) => suite.testExecError || (suite.failureMessage && suite.testResults.length === 0))
      .map((suite) => ({ name: path.relative(workspaceRoot, suite.testFilePath), why: firstLines(suite.testExecError?.message ?? suite.failureMessage ?? '') }));
    const summary = {
      project: name,
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
      durationMs: Date.now() - results.startTime,
      slowest: [...tests].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST).map(({ name, ms }) => ({ name, ms })),
      failures: [...tests.filter((test) => test.status === 'failed').map(({ name, why }) => ({ name, why })), ...broken],
    };
    fs.writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  }
}

module.exports = SummaryReporter;
