import { manualClock } from '@fedgw/test-support';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent, GatewayPlugin, Identity } from '../../../src/contract/index.js';
import { loadShedding, sampleEventLoopDelay } from '../../../src/plugins/load-shedding/index.js';
import { issueFields, optionsError } from '../helpers/options-error.js';
import { requestScope } from '../helpers/scope.js';

/**
 * The plugin alone, overload driven by an injected event-loop gauge (never by CPU). Classes
 * checkout (0), web (1), batch (2); a 50 ms bound and a 25% step: batch is shed from 50 ms,
 * web from 62.5 ms, checkout from 75 ms.
 */
const CLASSES = { checkout: 0, web: 1, batch: 2 };
const RULES = ['consumer:checkout-svc=checkout', 'claim:tier=gold=checkout', 'client:nightly=batch'];

function shedder(gauge: { ms: number }, events: GatewayEvent[] = []): GatewayPlugin {
  const plugin: GatewayPlugin = loadShedding({
    classes: CLASSES,
    rules: RULES,
    defaultClass: 'web',
    maxEventLoopDelayMs: 50,
    eventLoopDelay: () => gauge.ms,
    plugins: () => [{ name: 'observer', onEvent: (event) => void events.push(event) }],
  });
  return plugin;
}

/** What `authenticate` did for a request with this identity and these headers: passed, or its refusal. */
async function outcome(plugin: GatewayPlugin, identity: Identity, headers: Record<string, string> = {}) {
  try {
    await plugin.authenticate?.(requestScope(headers), identity);
    return 'passed';
  } catch (error) {
    expect(error).toBeInstanceOf(GraphQLError);
    const { code, http } = (error as GraphQLError).extensions as {
      code: string;
      http: { status: number; headers: Map<string, string> };
    };
    return `${http.status} ${code} retry-after=${http.headers.get('retry-after')}`;
  }
}

const SHED = '503 REQUEST_CONCURRENCY_LIMITED retry-after=2';
const checkout = { consumer: 'checkout-svc' };
const gold = { claims: { tier: 'gold' } };

describe('loadShedding', () => {
  it('sheds the least important class first, the next ones only as the overload grows', async () => {
    const gauge = { ms: 0 };
    const events: GatewayEvent[] = [];
    const plugin = shedder(gauge, events);
    const nightly = { 'apollographql-client-name': 'nightly' };
    const all = async () => [
      await outcome(plugin, checkout),
      await outcome(plugin, {}),
      await outcome(plugin, {}, nightly),
    ];
    gauge.ms = 49;
    expect(await all()).toEqual(['passed', 'passed', 'passed']);
    gauge.ms = 50;
    expect(await all()).toEqual(['passed', 'passed', SHED]);
    gauge.ms = 62.5;
    expect(await all()).toEqual(['passed', SHED, SHED]);
    gauge.ms = 75;
    expect(await all()).toEqual([SHED, SHED, SHED]);
    gauge.ms = 10;
    expect(await all()).toEqual(['passed', 'passed', 'passed']);
    expect(events.map((event) => (event.type === 'load-shed' ? event.className : event.type))).toEqual([
      'batch',
      'web',
      'batch',
      'checkout',
      'web',
      'batch',
    ]);
  });

  it('classes by verified evidence first: a client name never lifts a verified class', async () => {
    const gauge = { ms: 62.5 }; // web and batch shed
    const plugin = shedder(gauge);
    expect(await outcome(plugin, gold)).toBe('passed');
    expect(await outcome(plugin, { claims: { tier: ['silver', 'gold'] } })).toBe('passed');
    expect(await outcome(plugin, { claims: { tier: 'silver' } })).toBe(SHED);
    expect(await outcome(plugin, {}, { 'apollographql-client-name': 'checkout' })).toBe(SHED);
    // `checkout-svc` as a client name is not the consumer: only the API key plugin sets that.
    expect(await outcome(plugin, {}, { 'apollographql-client-name': 'checkout-svc' })).toBe(SHED);
  });

  it('counts operations in flight, from the start of their pipeline to their answer, against maxInFlight', async () => {
    const plugin = loadShedding({ classes: { checkout: 0, batch: 1 }, maxInFlight: 1, stepPercent: 100 });
    const start = async () => {
      const listener = await plugin.apollo?.requestDidStart?.({} as never);
      return () => listener?.willSendResponse?.({} as never);
    };
    const answer = await start();
    // The default class is the least important one (batch): shed at 1 in flight; checkout at 2.
    expect(await outcome(plugin, {})).toBe(SHED);
    await answer();
    await answer(); // counted once, however often it is called
    expect(await outcome(plugin, {})).toBe('passed');
    const [first, second] = [await start(), await start()];
    expect(await outcome(plugin, {}, {})).toBe(SHED);
    await first();
    await second();
    expect(await outcome(plugin, {})).toBe('passed');
  });

  it('refuses options that leave it without a bound, name unknown classes or let a client name lift a class', () => {
    expect(issueFields(optionsError('load-shedding', () => loadShedding({ classes: CLASSES })))).toEqual([
      'maxInFlight',
    ]);
    expect(
      issueFields(
        optionsError('load-shedding', () =>
          loadShedding({
            classes: CLASSES,
            rules: ['consumer:a=gold', 'client:app=web', 'nonsense'],
            defaultClass: 'batch',
            maxInFlight: 5,
          }),
        ),
      ),
    ).toEqual(['rules']);
    const error = optionsError('load-shedding', () =>
      loadShedding({
        classes: CLASSES,
        rules: ['consumer:a=gold', 'client:app=web'],
        defaultClass: 'batch',
        maxInFlight: 5,
      }),
    );
    expect(error.message).toContain('gold is not one of the classes');
    expect(error.message).toContain('client:app=web: a client name is self-declared');
  });
});

describe('sampleEventLoopDelay', () => {
  it("reads the window's mean delay past the monitor's resolution, once per window", async () => {
    const clock = manualClock();
    const histogram = { mean: 0, resets: 0, reset: () => void histogram.resets++, disable: () => {} };
    const delay = sampleEventLoopDelay(500, clock, histogram);
    histogram.mean = 70e6; // 70 ms between 10 ms ticks: 60 ms late
    expect(delay.delayMs()).toBe(0);
    await clock.advance(500);
    expect([delay.delayMs(), histogram.resets]).toEqual([60, 1]);
    histogram.mean = 10.5e6;
    await clock.advance(499);
    expect(delay.delayMs()).toBe(60);
    await clock.advance(1);
    expect(delay.delayMs()).toBe(0.5);
    histogram.mean = Number.NaN; // no sample in the window
    await clock.advance(500);
    expect(delay.delayMs()).toBe(0);
    delay.close();
    expect(clock.scheduled).toBe(0);
  });
});
