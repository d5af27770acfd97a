// parse-prometheus-text-format ships no types: these are the parts the tests read.
const parse = require('parse-prometheus-text-format') as (text: string) => { name: string; type: string }[];

/** One series of a histogram: its labels (without `le`), count, sum and cumulative buckets by bound. */
export interface HistogramSeries {
  labels: Record<string, string>;
  count: number;
  sum: number;
  buckets: Map<string, number>;
}

/**
 * The families of a Prometheus text exposition (name → type), checked line by line by
 * parse-prometheus-text-format, which throws on a line that breaks the format. That parser keeps
 * a histogram's labels only when it has none, so `histogram` reads labelled series from the
 * sample lines the format defines: `name_bucket{…,le="…"} v`, `name_sum{…} v`, `name_count{…} v`.
 */
export function parsePrometheus(text: string) {
  const types = new Map(parse(text).map((family) => [family.name, family.type]));
  return {
    types,
    histogram(name: string): HistogramSeries[] {
      if (types.get(name) !== 'HISTOGRAM') return [];
      const series = new Map<string, HistogramSeries>();
      for (const line of text.split('\n')) {
        const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
        if (!sample || !sample[1]!.startsWith(`${name}_`)) continue;
        const labels = parseLabels(sample[2] ?? '');
        const { le, ...rest } = labels;
        const key = JSON.stringify(Object.entries(rest).sort());
        const entry = series.get(key) ?? { labels: rest, count: NaN, sum: NaN, buckets: new Map<string, number>() };
        series.set(key, entry);
        const value = Number(sample[3]);
        const suffix = sample[1]!.slice(name.length + 1);
        if (suffix === 'count') entry.count = value;
        else if (suffix === 'sum') entry.sum = value;
        else if (suffix === 'bucket' && le !== undefined) entry.buckets.set(le, value);
      }
      return [...series.values()];
    },
  };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}
