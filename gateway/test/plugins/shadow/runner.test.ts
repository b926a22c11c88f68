import { captureLines, manualClock } from '@fedgw/test-support';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { GatewayContext, GatewayEvent, GatewayPlugin } from '../../../src/plugin-sdk/index.js';
import {
  type MirroredQuery,
  type ShadowAnswer,
  ShadowFailure,
  type ShadowLimits,
  type ShadowTarget,
  shadow,
} from '../../../src/plugins/shadow/index.js';
import { issueFields, optionsError } from '../helpers/options-error.js';

const QUERY: MirroredQuery = {
  query: '{ product(id: "1") { name } }',
  resolvedName: 'Product',
  headers: {},
  context: {} as GatewayContext,
  answer: { data: { product: { name: 'a' } } },
};

/** A target the test answers by hand: each `send` waits for the test's `answer` or `fail`. */
function manualTarget() {
  const pending: { resolve(answer: ShadowAnswer): void; reject(error: unknown): void; limits: ShadowLimits }[] = [];
  const target: ShadowTarget = {
    name: 'url',
    send: (_query, limits) => new Promise((resolve, reject) => pending.push({ resolve, reject, limits })),
  };
  return { target, pending };
}

function setUp(target: ShadowTarget, options: Record<string, unknown> = {}) {
  const clock = manualClock();
  const log = captureLines();
  const events: GatewayEvent[] = [];
  const observer: GatewayPlugin = { name: 'observer', onEvent: (event) => void events.push(event) };
  const plugin = shadow({
    targets: [target],
    clock,
    logger: pino({ level: 'info' }, log.stream),
    plugins: () => [observer],
    ...options,
  });
  const outcomes = () => events.map((event) => (event.type === 'shadow' ? event.outcome : event.type));
  return { plugin, clock, log, outcomes };
}

describe('the shadow runner', () => {
  it('gives a shadow up at its timeout: aborted, counted as shadow_error', async () => {
    const { target, pending } = manualTarget();
    const { plugin, clock, outcomes } = setUp(target, { timeoutMs: 500 });
    plugin.runner.mirror(QUERY);
    expect(pending).toHaveLength(1);
    await clock.advance(499);
    expect(outcomes()).toEqual([]);
    await clock.advance(1);
    await plugin.runner.settled();
    expect(pending[0]?.limits.signal.aborted).toBe(true);
    expect(outcomes()).toEqual(['shadow_error']);
    expect(plugin.runner.inFlight).toBe(0);
  });

  it('drops a shadow past SHADOW_MAX_CONCURRENCY instead of queueing it', async () => {
    const { target, pending } = manualTarget();
    const { plugin, outcomes } = setUp(target, { maxConcurrency: 1 });
    plugin.runner.mirror(QUERY);
    plugin.runner.mirror(QUERY);
    expect(pending).toHaveLength(1);
    expect(outcomes()).toEqual(['dropped']);
    pending[0]?.resolve(QUERY.answer);
    await plugin.runner.settled();
    expect(outcomes()).toEqual(['dropped', 'same']);
    plugin.runner.mirror(QUERY);
    expect(pending).toHaveLength(2);
  });

  it('ends the shadows in flight when the gateway stops, and starts none after', async () => {
    const { target, pending } = manualTarget();
    const { plugin, outcomes } = setUp(target, { timeoutMs: 60_000 });
    plugin.runner.mirror(QUERY);
    await plugin.close?.();
    expect(pending[0]?.limits.signal.aborted).toBe(true);
    expect(outcomes()).toEqual(['shadow_error']);
    plugin.runner.mirror(QUERY);
    expect(pending).toHaveLength(1);
  });

  it('logs a distinct difference at its 1st, 2nd, 4th… occurrence, paths only unless told', async () => {
    const lying: ShadowTarget = { name: 'url', send: async () => ({ data: { product: { name: 'secret' } } }) };
    const { plugin, log, outcomes } = setUp(lying);
    for (let i = 0; i < 5; i++) {
      plugin.runner.mirror(QUERY);
      await plugin.runner.settled();
    }
    const lines = log.lines.filter((line) => line.msg === 'shadow answer differs');
    expect(lines.map((line) => line.shadow)).toEqual(
      [1, 2, 4].map((count) => ({
        target: 'url',
        operationName: 'Product',
        paths: ['product.name'],
        count,
        run: expect.any(String),
      })),
    );
    expect(log.raw.join('\n')).not.toContain('secret');
    expect(outcomes()).toEqual(Array(5).fill('differs'));
    // When the gateway stops, the 5th occurrence is logged too: the report's count is exact.
    await plugin.close?.();
    expect(log.lines.filter((line) => line.msg === 'shadow answer differs').map((line) => line.shadow)).toEqual(
      [1, 2, 4, 5].map((count) => ({
        target: 'url',
        operationName: 'Product',
        paths: ['product.name'],
        count,
        run: expect.any(String),
      })),
    );

    const told = setUp(lying, { logValues: true });
    told.plugin.runner.mirror(QUERY);
    await told.plugin.runner.settled();
    expect(told.log.lines.find((line) => line.msg === 'shadow answer differs')?.shadow).toMatchObject({
      values: [{ path: 'product.name', client: 'a', shadow: 'secret' }],
    });
  });

  it('logs why a shadow failed, never what it said', async () => {
    const huge: ShadowTarget = {
      name: 'url',
      send: async () => {
        throw new ShadowFailure('too_large', { cause: new Error('body said password=hunter2') });
      },
    };
    const { plugin, log, outcomes } = setUp(huge);
    plugin.runner.mirror(QUERY);
    await plugin.runner.settled();
    expect(outcomes()).toEqual(['shadow_error']);
    expect(log.lines.find((line) => line.msg === 'shadow request failed')?.shadow).toEqual({
      target: 'url',
      reason: 'too_large',
    });
    expect(log.raw.join('\n')).not.toContain('hunter2');
  });

  it('refuses bad options, naming each', () => {
    const error = optionsError('shadow', () =>
      shadow({ targets: [], sample: 2, timeoutMs: 0, unorderedPaths: ['a..b'], colour: 'red' } as never),
    );
    expect(issueFields(error)).toEqual([
      'clock',
      'colour',
      'logger',
      'plugins',
      'sample',
      'targets',
      'timeoutMs',
      'unorderedPaths',
    ]);
  });
});
