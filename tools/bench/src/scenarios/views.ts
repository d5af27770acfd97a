import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { IsIn, IsInt, IsOptional, Max, MaxLength, Min } from 'class-validator';
import { buildServer, defineView, Field, Resource, serveHttp, Tool, ToolResult, Toolset, type HttpServerHandle } from '@toolsets/core';
import { httpDispatch, modernMeta, type RawDispatch } from '@toolsets/testing';
import { fmt, judge, type ScenarioResult } from '../harness/report';

const workspaceRoot = resolve(__dirname, '../../../..');
const NOTES = join(workspaceRoot, 'libs/toolsets/notes');
const BUNDLE = join(NOTES, 'dist/views/notes-board.html');
const TOOLS = 50;
const CALLS = 300;
const ROUNDS = 3;
const BUILDS = 40;

class BoardArgs {
  @Field({ description: 'The board to show, by its id as the boards list gives it.' })
  @MaxLength(64)
  boardId!: string;

  @Field({ description: 'How many of the newest cards to show (default 20).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @Field({ description: 'Show only the cards in this column.' })
  @IsOptional()
  @IsIn(['todo', 'doing', 'done'])
  column?: string;
}

class Card {
  @Field({ description: "The card's id, unique on its board." })
  id!: number;

  @Field({ description: 'What the card says.' })
  text!: string;

  @Field({ description: 'When it was added (ISO 8601).' })
  createdAt!: string;
}

/** Tools the size of the notes tools (about 1.3 KB of tools/list each): arguments, and a list of cards. */
class BoardResult extends ToolResult {
  @Field(() => [Card], { description: 'The cards, newest first.' })
  cards!: Card[];

  @Field({ description: 'How many cards the board has.' })
  total!: number;
}

/** A toolset of TOOLS tools, each with the notes board as its view or without one; and one small text resource to compare reads with. */
function toolsetWith(view: ReturnType<typeof defineView> | undefined) {
  @Toolset({ name: 'bench_views' })
  class BenchViewsToolset {
    @Resource({ uri: 'bench://note', description: 'A one-line text.', mimeType: 'text/plain' })
    note() {
      return 'a note';
    }
  }
  for (let i = 0; i < TOOLS; i++) {
    const name = `board_${i}`;
    Object.defineProperty(BenchViewsToolset.prototype, name, { value: () => ({ message: 'ok', cards: [], total: i }), writable: true, configurable: true });
    Tool({ name, description: `Show board ${i}: its newest cards, newest first, and how many it has.`, args: BoardArgs, returns: BoardResult, ...(view && { view }) })(BenchViewsToolset.prototype, name, Object.getOwnPropertyDescriptor(BenchViewsToolset.prototype, name)!);
  }
  return BenchViewsToolset;
}

const quiet = { info: () => undefined, warn: () => undefined, error: console.error };
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(calls: number, run: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

async function expectResult(send: RawDispatch, request: unknown): Promise<Record<string, unknown>> {
  const answer = await send(request);
  if (answer.kind === 'error') throw new Error(answer.error.message);
  return answer.result;
}

/**
 * What a view costs: the notes board's bundle (the built view, App bridge included), and, over
 * loopback HTTP, tools/list of TOOLS tools with a view against the same tools without, and a
 * resources/read of the view against a one-line resource; building the server with and without.
 */
export async function viewsScenario(): Promise<ScenarioResult> {
  if (!existsSync(BUNDLE)) execFileSync(process.execPath, [join(workspaceRoot, 'tools/build/build-views.cjs'), NOTES], { stdio: 'inherit' });
  const html = readFileSync(BUNDLE);
  const Board = defineView({ uri: 'ui://bench/board', bundle: BUNDLE, prefersBorder: true });
  const [WithViews, WithoutViews] = [toolsetWith(Board), toolsetWith(undefined)];
  const build = (toolset: ReturnType<typeof toolsetWith>) => buildServer({ name: 'bench-views', version: '1', toolsets: [toolset], logger: quiet, telemetry: false });
  // The third serves the views through the SDK, as every answer was before lists and views were served from bytes serialised once.
  const servers: HttpServerHandle[] = await Promise.all([
    serveHttp(build(WithViews), { port: 0, logger: quiet }),
    serveHttp(build(WithoutViews), { port: 0, logger: quiet }),
    serveHttp(build(WithViews), { port: 0, logger: quiet, cacheLists: false }),
  ]);
  try {
    const [views, plain, sdk] = servers.map((server) => httpDispatch(`${server.origin}/mcp`));
    const list = (send: RawDispatch) => expectResult(send, { method: 'tools/list', params: { _meta: modernMeta() } });
    const read = (uri: string, send = views!) => expectResult(send, { method: 'resources/read', params: { uri, _meta: modernMeta() } });
    const listBytes = [await list(views!), await list(plain!)].map((result) => Buffer.byteLength(JSON.stringify(result)));
    for (let i = 0; i < 50; i++) await Promise.all([list(views!), list(plain!), read('ui://bench/board'), read('ui://bench/board', sdk), read('bench://note')]);

    const ratios = { list: [] as number[], read: [] as number[], sdk: [] as number[] };
    const all: Record<string, number[]> = { listViews: [], listPlain: [], readView: [], readViewSdk: [], readNote: [] };
    const runs: Record<string, () => Promise<unknown>> = {
      listViews: () => list(views!),
      listPlain: () => list(plain!),
      readView: () => read('ui://bench/board'),
      readViewSdk: () => read('ui://bench/board', sdk),
      readNote: () => read('bench://note'),
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? Object.keys(runs) : Object.keys(runs).reverse();
      const medians: Record<string, number> = {};
      for (const what of order) {
        const run = runs[what]!;
        const times = await timed(CALLS, run);
        all[what]!.push(...times);
        medians[what] = median(times);
      }
      ratios.list.push(medians['listViews']! / medians['listPlain']!);
      ratios.read.push(medians['readView']! / medians['readNote']!);
      ratios.sdk.push(medians['readViewSdk']! / medians['readNote']!);
    }
    const builds = (toolset: ReturnType<typeof toolsetWith>) => {
      const times: number[] = [];
      for (let i = 0; i < BUILDS; i++) {
        const started = performance.now();
        build(toolset);
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const built = { views: builds(WithViews), plain: builds(WithoutViews) };
    const listRatio = median(all['listViews']!) / median(all['listPlain']!);
    return {
      scenario: 'views',
      title: '15. Views (MCP Apps): the bundle, and what serving it costs',
      method:
        `The notes board (libs/toolsets/notes/views/notes-board: the @modelcontextprotocol/ext-apps App bridge and its script, built by Vite + vite-plugin-singlefile into one page). ` +
        `Two HTTP servers in this process, each with ${TOOLS} tools, the same but for the view on every tool, called over loopback by raw 2026-07-28 requests; ` +
        `${CALLS} sequential requests per measure per round, ${ROUNDS} rounds, order alternated. buildServer: the median of ${BUILDS} builds.`,
      headers: ['measure', 'with views', 'without', 'ratio (per round)'],
      rows: [
        ['view bundle (bytes / gzip)', `${html.length.toLocaleString('en')} / ${gzipSync(html).length.toLocaleString('en')}`, '', ''],
        [`tools/list of ${TOOLS} tools (bytes)`, listBytes[0]!.toLocaleString('en'), listBytes[1]!.toLocaleString('en'), fmt(listBytes[0]! / listBytes[1]!, 3)],
        ['tools/list, median (ms)', fmt(median(all['listViews']!), 3), fmt(median(all['listPlain']!), 3), ratios.list.map((r) => fmt(r, 2)).join(', ')],
        ['resources/read: the view against a one-line resource, median (ms)', fmt(median(all['readView']!), 3), fmt(median(all['readNote']!), 3), ratios.read.map((r) => fmt(r, 2)).join(', ')],
        ['the same read of the view through the SDK (cacheLists: false), median (ms)', fmt(median(all['readViewSdk']!), 3), '', ratios.sdk.map((r) => fmt(r, 2)).join(', ')],
        ['buildServer, median (ms)', fmt(built.views, 2), fmt(built.plain, 2), fmt(built.views / built.plain, 2)],
      ],
      verdicts: [{ target: 'tools/list with a view on every tool ≤ 1.1 × without', measured: `${fmt(listRatio, 2)}×`, outcome: judge((value) => value <= 1.1, listRatio, ratios.list) }],
      notes: [
        'The view is read from disk once per process when a server is built (cached by path, size and time), and its resources/read answer is serialised once per era (like the lists); tools/list carries only its URI (twice: _meta.ui.resourceUri and the flat ui/resourceUri older hosts read), 86 bytes a tool.',
        'Most of a view read is moving and parsing ~300 KB of JSON on the client side of this loopback; the SDK path adds serialising and encoding it on every read.',
        'Most of the bundle is the App bridge (@modelcontextprotocol/ext-apps with the SDK protocol and zod); a host fetches a view once per URI and may cache it.',
      ],
    };
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
