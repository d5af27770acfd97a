import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult } from '../harness/report';

const workspaceRoot = resolve(__dirname, '../../../..');
const SAVES = 6;
const ROUNDS = 3;

const toolset = (greeting: string) => `import { Field, Tool, ToolResult, Toolset } from '@toolsets/core';

export class GreetResult extends ToolResult {
  @Field()
  greeting!: string;
}

@Toolset({ name: 'greet' })
export class GreetToolset {
  @Tool({ description: 'Greets someone.', returns: GreetResult })
  greet(): GreetResult {
    return { message: '${greeting}', greeting: '${greeting}' };
  }
}
`;

/** A workspace of one toolset library and one app, built, on this repository's node_modules and build scripts. */
function scratchWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'bench-dev-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  symlinkSync(join(workspaceRoot, 'node_modules'), join(root, 'node_modules'));
  symlinkSync(join(workspaceRoot, 'tools/build'), join(root, 'tools-build'));
  write('package.json', '{ "name": "scratch", "private": true }\n');
  write('libs/greet/project.json', JSON.stringify({ targets: { build: { options: { command: 'node tools-build/build-project.cjs libs/greet/src libs/greet/dist' } } } }));
  write('libs/greet/src/index.ts', toolset('v0'));
  write('apps/greet-server/project.json', JSON.stringify({ targets: { build: { options: { command: 'node tools-build/build-project.cjs apps/greet-server/src apps/greet-server/dist' } } } }));
  write(
    'apps/greet-server/src/main.ts',
    `import { startApp, buildServer } from '@toolsets/core';\nimport { GreetToolset } from '../../../libs/greet/dist';\n\nstartApp(() => buildServer({ name: 'greet', version: '1', toolsets: [GreetToolset] }));\n`,
  );
  for (const project of ['libs/greet', 'apps/greet-server']) {
    const built = spawnSync(process.execPath, [join(workspaceRoot, 'tools/build/build-project.cjs'), `${project}/src`, `${project}/dist`], { cwd: root, encoding: 'utf-8' });
    if (built.status !== 0) throw new Error(built.stderr);
  }
  return root;
}


async function greeting(port: number): Promise<string | undefined> {
  const client = new Client({ name: 'bench-dev', version: '1' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    return ((await client.callTool({ name: 'greet', arguments: {} })).structuredContent as { greeting?: string } | undefined)?.greeting;
  } catch {
    return undefined;
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Milliseconds from each save of the toolset to the first answer with its new greeting, under one dev-app.cjs. */
async function saveToAnswer(standby: boolean): Promise<number[]> {
  const root = scratchWorkspace();
  const port = await freePort();
  const watcher: ChildProcess = spawn(process.execPath, [join(workspaceRoot, 'tools/build/dev-app.cjs'), 'apps/greet-server'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), TOOLSETS_DEV_STANDBY: standby ? '1' : '0' },
    stdio: 'ignore',
  });
  try {
    await until(async () => (await greeting(port)) === 'v0', 'the first server');
    const times: number[] = [];
    for (let save = 1; save <= SAVES; save++) {
      // A pause between saves, as between edits: the standby is ready again, as it would be.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const started = performance.now();
      writeFileSync(join(root, 'libs/greet/src/index.ts'), toolset(`v${save}`));
      await until(async () => (await greeting(port)) === `v${save}`, `save ${save}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await new Promise((exited) => watcher.once('exit', exited).kill('SIGTERM'));
    rmSync(root, { recursive: true, force: true });
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The edit loop (`nx run <app>:dev`, tools/build/dev-app.cjs): how long from saving a toolset to
 * the restarted server answering with the change, with the standby process (core and the SDK
 * loaded ahead) and with every server started cold, rounds alternated.
 */
export async function devLoopScenario(): Promise<ScenarioResult> {
  const withStandby: number[] = [];
  const cold: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    const medians: Record<string, number> = {};
    for (const standby of order) {
      const times = await saveToAnswer(standby);
      (standby ? withStandby : cold).push(...times);
      medians[String(standby)] = median(times);
    }
    ratios.push(medians['true']! / medians['false']!);
  }
  const ratio = median(withStandby) / median(cold);
  return {
    scenario: 'dev-loop',
    title: '13. The edit loop: save to new answer',
    method:
      `A scratch workspace (one toolset library, one app) under tools/build/dev-app.cjs; ${SAVES} saves of the toolset per run, 1.5 s apart, each timed from the write ` +
      `to the first tools/call (a new SDK v2 client over HTTP, polled every 10 ms) that returns the new greeting. With the standby process (the default) and with ` +
      `TOOLSETS_DEV_STANDBY=0 (every server started cold), ${ROUNDS} rounds, order alternated.`,
    headers: ['measure', 'standby (default)', 'cold start'],
    rows: [
      ['save → new answer, median (ms)', fmt(median(withStandby), 0), fmt(median(cold), 0)],
      ['fastest / slowest (ms)', `${fmt(Math.min(...withStandby), 0)} / ${fmt(Math.max(...withStandby), 0)}`, `${fmt(Math.min(...cold), 0)} / ${fmt(Math.max(...cold), 0)}`],
      ['standby ÷ cold, per round', ratios.map((r) => fmt(r, 2)).join(', '), ''],
    ],
    verdicts: [
      { target: 'dev loop: save to new answer ≤ 0.7 × a cold restart', measured: `${fmt(ratio, 2)}× (${ratios.map((r) => fmt(r, 2)).join(', ')})`, outcome: judge((value) => value <= 0.7, ratio, ratios) },
      { target: 'dev loop: save to new answer in about a second (median ≤ 1.5 s)', measured: `${fmt(median(withStandby), 0)} ms`, outcome: median(withStandby) <= 1500 ? 'pass' : 'miss' },
    ],
  };
}
