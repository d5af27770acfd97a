import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { generateToolset } from '../openapi/generate-toolset';
import type { OpenApiConfig, ToolCuration } from '../openapi/openapi-config';

/** One tool called once: whether its answer came typed, passed on as `unchecked` (lenient), or failed, and its bytes. */
export interface MeasuredCall {
  name: string;
  /** The operation it calls (`GET /pets/{id}`): how a curated tool is paired with its generated self. */
  origin?: string;
  typed: boolean;
  lenient: boolean;
  bytes: number;
  failure?: string;
}

/** A library as served: its tools/list bytes and each tool's call. */
export interface MeasuredCatalog {
  listBytes: number;
  calls: MeasuredCall[];
}

/**
 * The config as the document gives the tools: which operations (the filters, and `exclude` in a
 * tool's entry), the credential header, the fixed headers and the grouping, without what curates
 * them (names, descriptions, arguments, fields, scopes, the library's and tags' entries, leniency).
 */
export function uncurated(config: OpenApiConfig): OpenApiConfig {
  const { tools, arguments: _arguments, tags: _tags, fields: _fields, lenient: _lenient, ...rest } = config;
  const excluded = Object.entries(tools ?? {}).filter(([, entry]) => entry.exclude === true);
  return { ...rest, ...(excluded.length > 0 && { tools: Object.fromEntries(excluded.map(([key]) => [key, { exclude: true } satisfies ToolCuration])) }) };
}

/**
 * Generates the library from `document` with `config`, serves it in a child process (environment:
 * PATH and the library's base URL, nothing else) against the upstream at `baseUrl`, and calls each
 * tool once with the arguments a model would make from its advertised schema.
 */
export async function measureCatalog(workspaceRoot: string, name: string, document: unknown, config: OpenApiConfig, baseUrl: string): Promise<MeasuredCatalog> {
  const generated = await generateToolset(name, document, config);
  // Not spawnSync: the built-in mock answers from this process, whose event loop must keep running.
  const child = spawn(process.execPath, [join(__dirname, 'measure-catalog.child.cjs')], {
    env: { PATH: process.env['PATH'] ?? '', [`${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_BASE_URL`]: baseUrl },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf-8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf-8').on('data', (chunk: string) => (stderr += chunk));
  const ended = new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  child.stdin.end(JSON.stringify({ workspaceRoot, files: generated.files, name }));
  const status = await ended;
  if (status !== 0) throw new Error(stderr.trim() || `the generated code's process ended with ${status}`);
  return JSON.parse(stdout) as MeasuredCatalog;
}

/** The report: each measure as generated and curated, the ratio, then the calls that did not come back typed. */
export function formatMeasures(plain: MeasuredCatalog, curated: MeasuredCatalog): string[] {
  const typed = (catalog: MeasuredCatalog) => new Map(catalog.calls.filter((call) => call.typed).map((call) => [call.origin ?? call.name, call.bytes]));
  const [plainTyped, curatedTyped] = [typed(plain), typed(curated)];
  // A curated tool and its generated self call the same operation, whatever the curation named it.
  const both = [...curatedTyped.keys()].filter((origin) => plainTyped.has(origin)).map((origin) => [{ bytes: plainTyped.get(origin)! }, { bytes: curatedTyped.get(origin)! }] as const);
  const median = (values: number[]) => (values.length === 0 ? 0 : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
  const plainMedian = median(both.map(([before]) => before!.bytes));
  const curatedMedian = median(both.map(([, after]) => after.bytes));
  const ratio = (after: number, before: number) => (before > 0 ? `${(after / before).toFixed(2)}×` : '');
  const number = (value: number) => value.toLocaleString('en-US');
  const rows: [string, string, string, string][] = [
    ['tools', String(plain.calls.length), String(curated.calls.length), ''],
    ['tools/list bytes', number(plain.listBytes), number(curated.listBytes), ratio(curated.listBytes, plain.listBytes)],
    ['calls with a typed answer', `${plainTyped.size}/${plain.calls.length}`, `${curatedTyped.size}/${curated.calls.length}`, ''],
    ['answers passed on unchecked (lenient)', String(plain.calls.filter((call) => call.lenient).length), String(curated.calls.filter((call) => call.lenient).length), ''],
    [`median answer bytes (${both.length} typed both ways)`, number(plainMedian), number(curatedMedian), ratio(curatedMedian, plainMedian)],
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...[['', 'as generated', 'curated', 'ratio'], ...rows].map((row) => row[column]!.length)));
  const line = (row: readonly string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]!) : cell.padStart(widths[column]!))).join('  ').trimEnd();
  const failures = (label: string, catalog: MeasuredCatalog) => catalog.calls.filter((call) => call.failure).map((call) => `  ${label} ${call.name}: ${call.failure}`);
  const failed = [...failures('as generated', plain), ...failures('curated', curated)];
  return [line(['', 'as generated', 'curated', 'ratio']), ...rows.map(line), ...(failed.length > 0 ? ['', 'Calls that failed:', ...failed] : [])];
}
