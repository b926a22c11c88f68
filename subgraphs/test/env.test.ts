import { describe, expect, it } from 'vitest';
import { parseSubgraphEnv } from '../src/env.js';

describe('parseSubgraphEnv', () => {
  it('uses defaults when nothing is set', () => {
    expect(parseSubgraphEnv('users', 4001, {})).toEqual({
      ok: true,
      env: { port: 4001, host: '127.0.0.1', delayMs: 0, inlineTrace: false },
    });
  });

  it('prefers PORT over <NAME>_PORT and reads the other variables', () => {
    const env = { PORT: '5000', REVIEWS_PORT: '6000', HOST: '0.0.0.0', SUBGRAPH_DELAY_MS: '25' };
    expect(parseSubgraphEnv('reviews', 4003, { ...env, SUBGRAPH_INLINE_TRACE: 'true' })).toEqual({
      ok: true,
      env: { port: 5000, host: '0.0.0.0', delayMs: 25, inlineTrace: true },
    });
    expect(parseSubgraphEnv('reviews', 4003, { REVIEWS_PORT: '6000' })).toMatchObject({
      env: { port: 6000 },
    });
    expect(parseSubgraphEnv('users', 4001, { SUBGRAPH_COUNT_HEADER: ' source ' })).toMatchObject({
      env: { countHeader: 'source' },
    });
  });

  it('reports every invalid variable at once, by name', () => {
    const result = parseSubgraphEnv('products', 4002, {
      PRODUCTS_PORT: '70000',
      SUBGRAPH_DELAY_MS: '-5',
      SUBGRAPH_INLINE_TRACE: 'yes',
      SUBGRAPH_COUNT_HEADER: 'x: y',
    });
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toHaveLength(4);
    expect(errors[3]).toMatch(/^SUBGRAPH_COUNT_HEADER /);
    expect(errors[0]).toMatch(/^PRODUCTS_PORT /);
    expect(errors[1]).toMatch(/^SUBGRAPH_DELAY_MS /);
    expect(errors[2]).toMatch(/^SUBGRAPH_INLINE_TRACE /);
  });
});
