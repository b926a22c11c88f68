import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/** Prometheus text, parsed: each family's declared type, and every sample by name and labels. */
export interface ParsedMetrics {
  /** `# TYPE` of each family: COUNTER, GAUGE, HISTOGRAM… */
  type(name: string): PrometheusFamily['type'] | undefined;
  /**
   * The samples of `name` (for a histogram: `<name>_count`, `<name>_sum`, `<name>_bucket`),
   * whose labels include `labels`.
   */
  samples(name: string, labels?: Record<string, string>): { labels: Record<string, string>; value: number }[];
  /** The one sample of `name` with these labels; 0 when the series does not exist (yet). */
  value(name: string, labels?: Record<string, string>): number;
}

/**
 * parse-prometheus-text-format folds every sample of a histogram into one, losing its labels
 * (its `flattenMetrics` only handles unlabelled histograms), so histogram TYPE lines are
 * dropped before parsing: their `_count`, `_sum` and `_bucket` samples are then read as
 * untyped families, labels intact (one family per run of lines: a histogram's `_count` lines
 * are interleaved with its buckets, so samples are gathered from every family of a name).
 * The declared types come from a parse of the raw text.
 */
export function parseMetrics(text: string): ParsedMetrics {
  const types = new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family.type]));
  const histograms = [...types].filter(([, type]) => type === 'HISTOGRAM').map(([name]) => name);
  const flat = text
    .split('\n')
    .filter((line) => !histograms.some((name) => line === `# TYPE ${name} histogram`))
    .join('\n');
  const families = parsePrometheusTextFormat(flat);
  const samples = (name: string, labels: Record<string, string> = {}) =>
    families
      .filter((family) => family.name === name)
      .flatMap((family) => family.metrics)
      .filter((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value))
      .map((metric) => ({ labels: { ...metric.labels }, value: Number(metric.value) }));
  return {
    type: (name) => types.get(name),
    samples,
    value(name, labels) {
      const found = samples(name, labels);
      if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} series`);
      return found[0]?.value ?? 0;
    },
  };
}

export interface Scrape extends ParsedMetrics {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/** One scrape of a gateway's metrics, parsed as Prometheus would read it. */
export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    ...parseMetrics(response.ok ? text : ''),
  };
}
