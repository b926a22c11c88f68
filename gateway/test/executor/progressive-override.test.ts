import { readFileSync } from 'node:fs';
import { Supergraph } from '@apollo/federation-internals';
import { SUPERGRAPH_PATH, seededRandom } from '@fedgw/test-support';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { decideLabels, fieldNamesIn, keyWithOverrides } from '../../src/executor/override-decision.js';
import { type OverrideLabels, overrideLabelsIn } from '../../src/executor/override-labels.js';
import { withoutSecurityFeatures } from '../../src/supergraph/security-features.js';

// The demo supergraph: Product.reviewsUrl moves from products to reviews under percent(25).
const demo = overrideLabelsIn(Supergraph.build(withoutSecurityFeatures(readFileSync(SUPERGRAPH_PATH, 'utf8'))).schema);
const labels = (all: string[], percent: [string, number][] = []): OverrideLabels => ({
  all: [...all].sort(),
  percent: new Map(percent),
});

describe('the supergraph labels', () => {
  it('are read from @join__field(overrideLabel:), percent(N) with its N', () => {
    expect(demo.all).toEqual(['percent(25)']);
    expect([...demo.percent]).toEqual([['percent(25)', 25]]);
  });
});

describe('decideLabels', () => {
  it('leaves a label off, drawing nothing, for an operation that names none of the fields it moves', () => {
    expect(demo.fields?.get('percent(25)')).toEqual(new Set(['reviewsUrl']));
    let draws = 0;
    const always = () => {
      draws++;
      return 0;
    };
    const other = fieldNamesIn(parse('{ topProducts(first: 1) { id name } }'));
    expect(decideLabels(demo, undefined, always, other)).toBeUndefined();
    expect(decideLabels(demo, { 'percent(25)': true }, always, other)).toBeUndefined();
    expect(draws).toBe(0);
    // Named anywhere, a fragment included: the label is decided as usual.
    const viaFragment = fieldNamesIn(parse('{ topProducts(first: 1) { ...P } } fragment P on Product { reviewsUrl }'));
    expect(decideLabels(demo, undefined, always, viaFragment)?.on).toEqual(['percent(25)']);
    expect(draws).toBe(1);
  });

  it('turns percent(N) on for N% of 2,000 seeded draws (within ±5 points), the same on every run', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 2000 }, () => decideLabels(demo, undefined, random) !== undefined);
    };
    const on = draw(7).filter(Boolean).length;
    expect(Math.abs(on / 2000 - 0.25)).toBeLessThan(0.05);
    expect(draw(7)).toEqual(draw(7));
  });

  it('lets a label a plugin set win over the percentage, either way', () => {
    const never = () => 0.999_999;
    const always = () => 0;
    expect(decideLabels(demo, { 'percent(25)': true }, never)?.on).toEqual(['percent(25)']);
    expect(decideLabels(demo, { 'percent(25)': false }, always)).toBeUndefined();
  });

  it('keeps a custom label off unless a plugin turns it on, and ignores labels the supergraph lacks', () => {
    const custom = labels(['use-reviews', 'percent(50)'], [['percent(50)', 50]]);
    const off = () => 0.9;
    expect(decideLabels(custom, undefined, off)).toBeUndefined();
    expect(decideLabels(custom, { 'use-reviews': true, 'not-in-supergraph': true }, off)?.on).toEqual(['use-reviews']);
    // An inherited name is not a choice.
    expect(decideLabels(labels(['toString']), {}, off)).toBeUndefined();
    const decision = decideLabels(custom, { 'use-reviews': true, 'percent(50)': true }, off);
    expect(decision?.on).toEqual(['percent(50)', 'use-reviews']);
    expect([...(decision?.conditions ?? [])]).toEqual([
      ['percent(50)', true],
      ['use-reviews', true],
    ]);
  });

  it('draws once per percentage label nobody set, none for a label a plugin set', () => {
    let draws = 0;
    const random = () => {
      draws++;
      return 0.5;
    };
    const two = labels(
      ['percent(10)', 'percent(90)'],
      [
        ['percent(10)', 10],
        ['percent(90)', 90],
      ],
    );
    expect(decideLabels(two, { 'percent(10)': true }, random)?.on).toEqual(['percent(10)', 'percent(90)']);
    expect(draws).toBe(1);
  });
});

describe('the plan cache key', () => {
  it("is @apollo/gateway's key when no label is on, else that key and the sorted labels on", () => {
    expect(keyWithOverrides('abc', undefined)).toBe('abc');
    const custom = labels(['b-label', 'a-label']);
    const both = decideLabels(custom, { 'b-label': true, 'a-label': true }, Math.random);
    expect(keyWithOverrides('abc', both)).toBe('abc:override:a-label,b-label');
  });

  it('takes at most 2^L values per operation, whatever label sets plugins or clients choose', () => {
    const custom = labels(['a', 'b'], []);
    const random = seededRandom(3);
    const keys = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const chosen: Record<string, boolean> = {};
      for (const name of ['a', 'b', `client-${i}`, 'c']) if (random() < 0.5) chosen[name] = true;
      keys.add(keyWithOverrides('k', decideLabels(custom, chosen, random)));
    }
    expect([...keys].sort()).toEqual(['k', 'k:override:a', 'k:override:a,b', 'k:override:b']);
  });
});
