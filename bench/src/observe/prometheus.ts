import { request } from 'undici';

/** Unlabelled samples of a Prometheus text exposition: name → value (labelled series are skipped). */
export type MetricValues = ReadonlyMap<string, number>;

/**
 * The unlabelled samples of Prometheus text format (what prom-client's default metrics
 * expose: `process_cpu_seconds_total 1.23`). Enough for the gauges the bench reads; a
 * full parser is not needed for them.
 */
export function parseUnlabelled(text: string): MetricValues {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\s+(\S+)(?:\s+\d+)?\s*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    const value = Number(match[2]);
    if (!Number.isNaN(value)) values.set(match[1], value);
  }
  return values;
}

/** GET `url` (the gateway's metrics endpoint) and its unlabelled samples; throws when it does not answer 200. */
export async function scrapeMetrics(url: string, timeoutMs = 5_000): Promise<MetricValues> {
  const response = await request(url, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new Error(`metrics: GET ${new URL(url).pathname} answered ${response.statusCode}`);
  return parseUnlabelled(text);
}
