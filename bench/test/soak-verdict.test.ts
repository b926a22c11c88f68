// The soak's verdict, from small hand-made time series.
import { describe, expect, it } from 'vitest';
import { errorKinds } from '../src/soak/error-kind.js';
import type { SoakInterval } from '../src/soak/results.js';
import { soakVerdict } from '../src/soak/verdict.js';

const interval = (rssMb: number | null, fields: Partial<SoakInterval> = {}): SoakInterval => ({
  atSec: 10,
  sent: 100,
  completed: 100,
  failed: 0,
  late: 0,
  latencyMs: { p50: 2, p99: 8 },
  errors: {},
  rssMb,
  cpuShare: 0.7,
  lagP99Ms: 12,
  lagMeanMs: 10,
  lagMaxMs: 20,
  heapUsedMb: 40,
  ...fields,
});
const series = (rss: readonly number[], fields: Partial<SoakInterval> = {}) => rss.map((mb) => interval(mb, fields));

describe('the soak verdict', () => {
  it('passes a flat RSS with no errors and low lag', () => {
    const verdict = soakVerdict(series([150, 152, 149, 151, 150, 153]));
    expect(verdict.pass).toBe(true);
    // First third: 150, 152 → 151; last third: 150, 153 → 151.5.
    expect(verdict.rss).toEqual({ firstThirdMb: 151, lastThirdMb: 151.5, growthPercent: 0.33, limitPercent: 10 });
    expect(verdict.lag).toEqual({ maxP99Ms: 12, maxMs: 20, limitP99Ms: 100 });
    expect(verdict.findings).toContain('No request failed.');
  });

  it('fails steady growth between the first and the last third', () => {
    const verdict = soakVerdict(series([100, 110, 120, 130, 140, 150]));
    expect(verdict.pass).toBe(false);
    expect(verdict.rss?.growthPercent).toBe(38.1); // 105 → 145
    expect(verdict.findings[0]).toMatch(/^RSS grew 38\.1% \(105\.0 → 145\.0 MB/);
  });

  it('does not count a warm-up bump that settles as growth', () => {
    expect(soakVerdict(series([120, 160, 140, 140, 141, 140, 139, 140, 141])).pass).toBe(true);
  });

  it('fails any error, and names every kind with its count', () => {
    const intervals = [
      ...series([150, 150]),
      interval(150, { failed: 3, completed: 97, errors: { 'HTTP 503': 2, 'GRAPHQL SUBGRAPH_TIMEOUT': 1 } }),
      interval(150, { failed: 1, completed: 99, errors: { 'HTTP 503': 1 } }),
    ];
    const verdict = soakVerdict(intervals);
    expect(verdict.pass).toBe(false);
    expect(verdict.failed).toBe(4);
    expect(verdict.findings).toContain('4 requests failed: HTTP 503 × 3, GRAPHQL SUBGRAPH_TIMEOUT × 1.');
  });

  it('fails a lag spike above the limit, and a run without lag readings', () => {
    const spike = [...series([150, 150, 150]), interval(150, { lagP99Ms: 250, lagMaxMs: 400 })];
    expect(soakVerdict(spike).pass).toBe(false);
    expect(soakVerdict(spike).lag).toEqual({ maxP99Ms: 250, maxMs: 400, limitP99Ms: 100 });
    const blind = series([150, 150, 150], { lagP99Ms: null, lagMeanMs: null, lagMaxMs: null });
    expect(soakVerdict(blind).pass).toBe(false);
    expect(soakVerdict(blind).findings).toContain('No event-loop lag readings (the metrics endpoint did not answer).');
  });

  it('cannot judge growth from fewer than three RSS readings', () => {
    const verdict = soakVerdict([interval(150), interval(null), interval(151)]);
    expect(verdict.rss).toBeNull();
    expect(verdict.pass).toBe(false);
  });

  it('reports late sends without failing the gateway for them', () => {
    const verdict = soakVerdict(series([150, 150, 150], { late: 5 }));
    expect(verdict.pass).toBe(true);
    expect(verdict.findings.at(-1)).toMatch(/^⚠ 5\.0% of sends left late/);
  });
});

describe('error kinds', () => {
  it('names GraphQL codes, else the status, else the transport failure; never the body', () => {
    const body = JSON.stringify({
      errors: [
        { message: 'secret detail', extensions: { code: 'REQUEST_RATE_LIMITED' } },
        { message: 'x', extensions: { code: 'REQUEST_RATE_LIMITED' } },
        { message: 'no code' },
      ],
    });
    expect(errorKinds({ status: 429, body })).toEqual(['GRAPHQL REQUEST_RATE_LIMITED', 'GRAPHQL NO_CODE']);
    expect(errorKinds({ status: 502, body: '<html>bad gateway</html>' })).toEqual(['HTTP 502']);
    expect(errorKinds({ error: Object.assign(new Error('t'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) })).toEqual([
      'timeout',
    ]);
    expect(errorKinds({ error: Object.assign(new Error('r'), { code: 'ECONNRESET' }) })).toEqual(['ECONNRESET']);
  });
});
