import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

// Not a timing test: it proves the built benchmark still runs, on the smallest catalog.
const scenarioScript = resolve(__dirname, '../dist/scenario.js');

describe('the built benchmark', () => {
  it('gates and lists a generated 10-tool catalog and reports its timings', () => {
    const run = spawnSync(process.execPath, ['--expose-gc', scenarioScript, 'catalog-size', '10'], { encoding: 'utf-8' });
    expect(run.status).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    expect(line).toEqual(expect.stringMatching(/^RESULT \{/));
    const result = JSON.parse(line!.slice('RESULT '.length));
    expect(result.count).toBe(10);
    for (const key of ['coldMs', 'warmMs', 'listMs']) expect(Number.isFinite(result[key])).toBe(true);
  });

  it('refuses an unknown scenario, naming the ones there are', () => {
    const run = spawnSync(process.execPath, [scenarioScript, 'nope'], { encoding: 'utf-8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Unknown scenario 'nope'. Scenarios: per-call, rich-result, catalog-size, http, memory, stall, openapi-scale, openapi-documents, discovery, mock-calls, auth, telemetry, upstream-transport, dev-loop, tasks, views, code-mode, code-mode-search, code-mode-held-out, curated-catalogs, catalog-modes, upstream-mcp, upstream-leg, stdio-serving.");
  });
});
