// A plugin's settings are one group in the config (config.jwt is jwtAuth's options) and one
// object in the config file; the flat file keys they had before still work, with a warning.
import { describe, expect, it } from 'vitest';
import { type ConfigWarning, parseConfig } from '../../src/config/parse.js';
import type { GatewayConfigError } from '../../src/errors.js';

function fromFile(file: object, env: Record<string, string> = {}) {
  const warnings: ConfigWarning[] = [];
  const config = parseConfig(
    { GATEWAY_CONFIG_FILE: 'gateway.json', ...env },
    { cwd: '/srv', readFile: () => JSON.stringify(file), onWarning: (warning) => warnings.push(warning) },
  );
  return { config, warnings };
}

function issuesOf(file: object): string[] {
  try {
    fromFile(file);
  } catch (error) {
    return (error as GatewayConfigError).issues.map((issue) => `${issue.field}: ${issue.message}`);
  }
  throw new Error('expected the config to be refused');
}

describe('setting groups', () => {
  it('reads a group from its object in the file, named as the plugin names its options', () => {
    const { config, warnings } = fromFile({
      jwt: { issuer: 'https://id.example', algorithms: ['RS256'], scheme: 'Token' },
      rateLimit: { max: 7, keyBy: 'global' },
    });
    expect(config.jwt).toMatchObject({ issuer: 'https://id.example', algorithms: ['RS256'], scheme: 'Token' });
    expect(config.rateLimit).toMatchObject({ max: 7, keyBy: 'global', windowMs: 60_000 });
    expect(warnings.filter((warning) => warning.message.startsWith('deprecated'))).toEqual([]);
  });

  it('the environment still wins over the file', () => {
    const { config } = fromFile({ jwt: { issuer: 'from-file' } }, { JWT_ISSUER: 'from-env' });
    expect(config.jwt.issuer).toBe('from-env');
  });

  it('a flat key from before the groups still works, with a warning naming the new place', () => {
    const { config, warnings } = fromFile({
      jwtIssuer: 'old',
      jwtPrefix: 'Token',
      rateLimitMax: 3,
      redisUrl: 'redis://r:6379',
      authorizationDryRun: true,
    });
    expect(config.jwt).toMatchObject({ issuer: 'old', scheme: 'Token' });
    expect(config.authorization.dryRun).toBe(true);
    expect(config.rateLimit).toMatchObject({ max: 3, redisUrl: 'redis://r:6379' });
    expect(warnings).toContainEqual({
      setting: 'gateway.json: jwtPrefix',
      message: expect.stringMatching(/^deprecated: now jwt\.scheme/),
    });
  });

  it('with both, the group wins and the flat key is reported as ignored', () => {
    const { config, warnings } = fromFile({ jwt: { issuer: 'new' }, jwtIssuer: 'old' });
    expect(config.jwt.issuer).toBe('new');
    expect(warnings).toContainEqual({
      setting: 'gateway.json: jwtIssuer',
      message: 'deprecated and ignored: jwt.issuer is set too, and wins',
    });
  });

  it('refuses an unknown key inside a group, a group that is not an object, and names every bad value', () => {
    expect(
      issuesOf({ jwt: { isuer: 'x', clockToleranceSec: -1 }, rateLimit: 5, apiKey: { keys: 'no-colon' } }).sort(),
    ).toEqual([
      expect.stringMatching(/^gateway\.json: apiKey\.keys: entry 1 is not consumer:key/),
      expect.stringMatching(/^gateway\.json: jwt\.clockToleranceSec: expected an integer from 0 to 600/),
      expect.stringMatching(/^gateway\.json: jwt\.isuer: unknown setting \(expected jwksUrl, /),
      'gateway.json: rateLimit: expected an object',
    ]);
  });

  describe('entityCache: the old key held the store, the new one is the group', () => {
    it('reads the group, store included, without a warning', () => {
      const { config, warnings } = fromFile({ entityCache: { store: 'memory', maxBytes: '8mb', maxTtlMs: '10m' } });
      expect(config.entityCache).toMatchObject({ store: 'memory', maxBytes: 8 * 1024 ** 2, maxTtlMs: 600_000 });
      expect(warnings.filter((warning) => warning.message.startsWith('deprecated'))).toEqual([]);
    });

    it('still reads the old string as the store, and the old flat keys, with warnings', () => {
      const { config, warnings } = fromFile({ entityCache: 'memory', entityCacheTtlTypes: 'Product:1m' });
      expect(config.entityCache).toMatchObject({ store: 'memory', typeTtlMs: { Product: 60_000 } });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: entityCache',
        message: expect.stringMatching(/^deprecated: now entityCache\.store/),
      });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: entityCacheTtlTypes',
        message: expect.stringMatching(/^deprecated: now entityCache\.typeTtlMs/),
      });
    });

    it('with both, the group wins; a bad old store value is named as the old key', () => {
      const { config, warnings } = fromFile({
        entityCache: { store: 'memory', maxTtlMs: '5m' },
        entityCacheMaxTtl: '1m',
      });
      expect(config.entityCache.maxTtlMs).toBe(300_000);
      expect(warnings).toContainEqual({
        setting: 'gateway.json: entityCacheMaxTtl',
        message: 'deprecated and ignored: entityCache.maxTtlMs is set too, and wins',
      });
      expect(issuesOf({ entityCache: 'sometimes' })).toEqual([expect.stringMatching(/^gateway\.json: entityCache: /)]);
      expect(issuesOf({ entityCache: { stor: 'memory' } })).toEqual([
        expect.stringMatching(/^gateway\.json: entityCache\.stor: unknown setting/),
      ]);
    });
  });
});
