import { afterEach, describe, expect, it } from 'vitest';
import { runClosedLoop } from '../src/load/closed-loop.js';
import { runOpenLoop } from '../src/load/open-loop.js';
import { summarize } from '../src/measure/samples.js';
import { type FakeServer, sendJson, startFakeServer } from './fake-server.js';

const DELAY_MS = 5;
let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('open-loop generator', () => {
  it('sends on schedule and measures from the intended start, at µs resolution', async () => {
    server = await startFakeServer((_body, _i, res) => {
      setTimeout(() => sendJson(res, 200, { data: { ok: true } }), DELAY_MS);
    });
    const result = await runOpenLoop({ url: server.url, rate: 200, durationSec: 1, body: () => '{}' });

    expect(result.schedule?.intended).toBe(200);
    expect(result.schedule?.sent).toBe(200);
    expect(result.ok).toBe(200);
    expect(result.errors).toBe(0);
    // Arrivals follow the schedule (5 ms apart over 1 s), not the answers: a burst would put all
    // 200 within a few ms. Measured as the spread from first to last arrival, not as a count in
    // the first half second: on a loaded CI machine a late first send makes the sends due by then
    // go at once (as an open loop must), which moved that count past any fixed bound.
    const first = server.arrivals[0] as bigint;
    const last = server.arrivals[server.arrivals.length - 1] as bigint;
    expect(Number(last - first) / 1e6).toBeGreaterThan(300);

    const latency = summarize(result.samples);
    expect(latency).not.toBeNull();
    if (!latency) return;
    expect(latency.p50).toBeGreaterThanOrEqual(DELAY_MS);
    expect(latency.p50).toBeLessThanOrEqual(latency.p90);
    expect(latency.p90).toBeLessThanOrEqual(latency.p95);
    expect(latency.p95).toBeLessThanOrEqual(latency.p99);
    expect(latency.p99).toBeLessThanOrEqual(latency.max);
    expect(latency.mean).toBeGreaterThanOrEqual(DELAY_MS);
    // Not whole milliseconds: the samples keep microseconds.
    expect(Number.isInteger(latency.p50)).toBe(false);
  });

  it('charges a stalled server for the queue it causes (no coordinated omission)', async () => {
    // The server answers nothing for its first 300 ms, then answers at once.
    const startedAt = Date.now();
    server = await startFakeServer((_body, _i, res) => {
      setTimeout(() => sendJson(res, 200, { data: {} }), Math.max(0, 300 - (Date.now() - startedAt)));
    });
    const result = await runOpenLoop({ url: server.url, rate: 100, durationSec: 1, body: () => '{}' });
    const latency = summarize(result.samples);
    // ~30 requests were due during the stall; the first waited ~300 ms, so the max shows it.
    expect(latency?.max).toBeGreaterThan(200);
    // Most requests came after the stall and are not charged for it. Relative, not a fixed
    // number of ms: on a busy machine event-loop lag adds the same delay to every sample.
    expect(latency?.p50).toBeLessThan((latency?.max ?? 0) / 2);
    expect(result.ok).toBe(100);
  });

  it('counts non-2xx answers and GraphQL errors as errors, never as throughput, each at the timeout', async () => {
    server = await startFakeServer((_body, i, res) => {
      if (i % 4 === 0) sendJson(res, 500, { errors: [{ message: 'boom' }] });
      else if (i % 4 === 1) sendJson(res, 200, { data: null, errors: [{ message: 'partial' }] });
      else sendJson(res, 200, { data: { ok: true } });
    });
    const result = await runOpenLoop({
      url: server.url,
      rate: 100,
      durationSec: 0.4,
      body: () => '{}',
      timeoutMs: 2000,
    });
    expect(result.ok + result.errors).toBe(40);
    expect(result.errors).toBe(20);
    expect(result.failedAtMs).toBe(2000);
    // Every request is in the percentiles; the 20 failures are the 20 slowest, at 2 s each.
    const sorted = result.samples.sorted();
    expect(sorted.length).toBe(40);
    expect([...sorted.slice(20)]).toEqual(Array(20).fill(2_000_000));
    expect(sorted[19]).toBeLessThan(2_000_000);
  });

  it('reports live progress once a second: seconds done and answers in that second', async () => {
    server = await startFakeServer((_body, _i, res) => sendJson(res, 200, { data: { ok: true } }));
    const ticks: [number, number][] = [];
    await runOpenLoop({
      url: server.url,
      rate: 50,
      durationSec: 2.2,
      body: () => '{}',
      onTick: (seconds, answers) => ticks.push([seconds, answers]),
    });
    expect(ticks.map(([seconds]) => seconds).slice(0, 2)).toEqual([1, 2]);
    // About 50 answers a second; a busy machine may shift a few across the boundary.
    for (const [, answers] of ticks.slice(0, 2)) expect(answers).toBeGreaterThan(30);
  });
});

describe('closed-loop generator (autocannon)', () => {
  it('counts only 2xx answers without GraphQL errors as successes', async () => {
    server = await startFakeServer((_body, i, res) => {
      sendJson(res, 200, i % 2 === 0 ? { data: { ok: true } } : { data: null, errors: [{ message: 'no' }] });
    });
    const result = await runClosedLoop({ url: server.url, connections: 2, durationSec: 1, body: () => '{}' });
    expect(result.ok).toBeGreaterThan(10);
    expect(Math.abs(result.ok - result.errors)).toBeLessThanOrEqual(2);
    expect(result.samples.count).toBe(result.ok);
  });

  it('sends the body setupRequest builds for each request', async () => {
    const bodies = new Set<string>();
    server = await startFakeServer((body, _i, res) => {
      bodies.add(body);
      sendJson(res, 200, { data: {} });
    });
    let n = 0;
    await runClosedLoop({ url: server.url, connections: 1, durationSec: 0.5, body: () => JSON.stringify({ n: n++ }) });
    expect(bodies.size).toBeGreaterThan(5);
  });
});
