import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { GatewayConfigError } from '../../src/errors.js';

const parse = (env: Record<string, string>) => parseConfig(env, { cwd: '/srv/gateway' });

describe('ENTITY_CACHE settings', () => {
  it('is off by default, with no TTL default: nothing is kept unless a subgraph says how long', () => {
    const config = parse({});
    expect(config.entityCache.store).toBe('off');
    expect(config.entityCache.defaultTtlMs).toBeUndefined();
    expect(config.entityCache.maxBytes).toBe(64 * 1024 ** 2);
  });

  it('redis takes ENTITY_CACHE_REDIS_URL, else REDIS_URL, and refuses to start with neither', () => {
    expect(parse({ ENTITY_CACHE: 'redis', GATEWAY_REDIS_URL: 'redis://shared:6379' }).entityCache.redisUrl).toBe(
      'redis://shared:6379',
    );
    expect(
      parse({
        ENTITY_CACHE: 'redis',
        GATEWAY_REDIS_URL: 'redis://shared:6379',
        ENTITY_CACHE_REDIS_URL: 'redis://own:6379',
      }).entityCache.redisUrl,
    ).toBe('redis://own:6379');
    expect(() => parse({ ENTITY_CACHE: 'redis' })).toThrow(GatewayConfigError);
    expect(() => parse({ ENTITY_CACHE: 'redis' })).toThrow(/ENTITY_CACHE_REDIS_URL/);
  });

  it('reads per-subgraph and per-type TTLs, and names a bad one', () => {
    const config = parse({
      ENTITY_CACHE: 'memory',
      ENTITY_CACHE_TTL_SUBGRAPHS: 'products:60s,reviews:5s',
      ENTITY_CACHE_TTL_TYPES: 'Product:2m',
    });
    expect(config.entityCache.subgraphTtlMs).toEqual({ products: 60_000, reviews: 5_000 });
    expect(config.entityCache.typeTtlMs).toEqual({ Product: 120_000 });
    expect(() => parse({ ENTITY_CACHE: 'memory', ENTITY_CACHE_TTL_TYPES: 'Product:forever' })).toThrow(
      /ENTITY_CACHE_TTL_TYPES/,
    );
    expect(() => parse({ ENTITY_CACHE: 'sometimes' })).toThrow(/ENTITY_CACHE/);
  });
});
