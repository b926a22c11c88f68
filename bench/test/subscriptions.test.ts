// The subscription bench's pure parts: matching deliveries to mutation answers, and its options.
import { describe, expect, it, vi } from 'vitest';
import { DeliveryTracker } from '../src/subscriptions/delivery-tracker.js';
import { eventsFor, parseSubscriptionOptions } from '../src/subscriptions/options.js';
import { rowWarning, subscriptionTable } from '../src/subscriptions/report.js';
import type { SubscriptionRow } from '../src/subscriptions/results.js';
import { ROUTER_NOT_MEASURED } from '../src/subscriptions/target-setup.js';

describe('DeliveryTracker', () => {
  it('times every delivery from its mutation answer, whichever arrived first', () => {
    const tracker = new DeliveryTracker(2);
    tracker.arrived('review-1', 9); // before the answer: timed as 0
    tracker.answered('review-1', 10);
    tracker.arrived('review-1', 14);
    tracker.answered('review-2', 20);
    tracker.arrived('review-2', 21);
    tracker.arrived('review-2', 22);
    tracker.arrived('warm-up', 5); // never answered here: ignored
    const summary = tracker.summary();
    expect(summary).toMatchObject({
      events: 2,
      expected: 4,
      delivered: 4,
      missing: 0,
      duplicates: 0,
      beforeAnswer: 1,
    });
    // Sorted latencies 0, 1, 2, 4 ms: nearest rank.
    expect(summary.latencyMs).toMatchObject({ p50: 1, p99: 4, max: 4, mean: 1.75 });
  });

  it('counts missing and duplicate deliveries without timing the duplicates', () => {
    const tracker = new DeliveryTracker(3);
    tracker.answered('a', 0);
    for (const at of [1, 2, 3, 4]) tracker.arrived('a', at);
    tracker.answered('b', 0);
    tracker.arrived('b', 7);
    const summary = tracker.summary();
    expect(summary).toMatchObject({ expected: 6, delivered: 4, missing: 2, duplicates: 1 });
    expect(summary.latencyMs?.max).toBe(7);
  });

  it('resolves complete() once every subscriber has the event, false after the timeout', async () => {
    vi.useFakeTimers();
    try {
      const tracker = new DeliveryTracker(2);
      tracker.arrived('early', 1);
      tracker.arrived('early', 2);
      await expect(tracker.complete('early', 1000)).resolves.toBe(true);
      const pending = tracker.complete('late', 1000);
      tracker.arrived('late', 3);
      tracker.arrived('late', 4);
      await expect(pending).resolves.toBe(true);
      const never = tracker.complete('never', 1000);
      vi.advanceTimersByTime(1000);
      await expect(never).resolves.toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('has no latency without deliveries, and refuses a subscriber count below 1', () => {
    const tracker = new DeliveryTracker(1);
    tracker.answered('x', 0);
    expect(tracker.summary()).toMatchObject({ delivered: 0, missing: 1, latencyMs: null });
    expect(() => new DeliveryTracker(0)).toThrow(/subscribers/);
  });
});

describe('subscription bench options', () => {
  it('defaults to our two Fastify mounts (nest-fastify also with subgraph dedup, with a socket per subscription and over multipart), Hive Gateway and the Router row, N = 1, 100, 1000', () => {
    expect(parseSubscriptionOptions([])).toMatchObject({
      targets: [
        'nest-fastify',
        'nest-fastify+subgraph-dedup',
        'nest-fastify+own-sockets',
        'nest-fastify+multipart',
        'fastify',
        'hive-gateway',
        'apollo-router',
      ],
      subscribers: [1, 100, 1000],
      events: 200,
      inFlight: 4,
    });
  });

  it('names the bad option', () => {
    expect(() => parseSubscriptionOptions(['--targets', 'nope'])).toThrow(/--targets: unknown nope/);
    expect(() => parseSubscriptionOptions(['--subscribers', '10,0'])).toThrow(/--subscribers/);
    expect(() => parseSubscriptionOptions(['--in-flight', '1.5'])).toThrow(/--in-flight/);
  });

  it('caps the events of a large N by the deliveries they make, never below 10', () => {
    const options = { events: 200, maxDeliveries: 100_000 };
    expect(eventsFor(options, 100)).toBe(200);
    expect(eventsFor(options, 1000)).toBe(100);
    expect(eventsFor(options, 100_000)).toBe(10);
  });
});

describe('subscription table', () => {
  it('gives a target that is not measured one row that says why', () => {
    const table = subscriptionTable([
      { target: 'apollo-router', subscribers: null, status: 'not-measured', message: ROUTER_NOT_MEASURED },
    ]);
    expect(table).toContain(`| apollo-router | all | ${ROUTER_NOT_MEASURED} |`);
  });
});

describe('row warning', () => {
  const row = (gatewayCpuShare: number): SubscriptionRow => ({
    target: 'fastify',
    subscribers: 100,
    status: 'ok',
    gatewayCpuShare,
    subgraphCpuShare: 0.6,
    clientCpuShare: 0.1,
  });

  it('flags a row whose gateway did not use most of its core, and no other', () => {
    expect(rowWarning(row(0.55))).toMatch(
      /^the gateway used 0.55 of its core \(subgraphs 0.60 \+ clients 0.10 of the core they share/,
    );
    expect(rowWarning(row(0.9))).toBeUndefined();
    expect(subscriptionTable([row(0.55), row(0.9)])).toMatch(/\| fastify ⚠1 \|[^\n]*\n\| fastify \|/);
  });
});
