/** What every scenario process prints (as its last stdout line, JSON) for the report. */
export interface ScenarioResult {
  scenario: string;
  title: string;
  method: string;
  headers: string[];
  rows: string[][];
  verdicts: Verdict[];
  notes?: string[];
}

/** `within noise`: the rounds' spread covers the target, so this run cannot say pass or miss. */
export type Outcome = 'pass' | 'miss' | 'within noise';

export interface Verdict {
  target: string;
  measured: string;
  outcome: Outcome;
}

/**
 * The outcome of a target `passes` over a measurement. With the per-round values (`band`), a
 * target counts as met or missed only when every round agrees; otherwise it is within noise.
 */
export function judge(passes: (value: number) => boolean, value: number, band?: readonly number[]): Outcome {
  if (!band || band.length < 2) return passes(value) ? 'pass' : 'miss';
  const low = Math.min(...band);
  const high = Math.max(...band);
  if (passes(low) && passes(high)) return 'pass';
  if (!passes(low) && !passes(high)) return 'miss';
  return 'within noise';
}

/** `1.01× (0.97–1.06)`: the median ratio and the rounds' range. */
export const ratioWithBand = (value: number, band: readonly number[]) => `${ratio(value)} (${fmt(Math.min(...band), 2)}–${fmt(Math.max(...band), 2)})`;

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const ratio = (value: number) => `${fmt(value, 2)}×`;
