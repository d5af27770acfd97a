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

export interface Verdict {
  target: string;
  measured: string;
  pass: boolean;
}

export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const ratio = (value: number) => `${fmt(value, 2)}×`;
