// A renamed setting keeps its old name working, with a deprecation warning: a deployment that
// copied this template must not break, or silently lose a setting, on upgrade.
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig, settingOf } from '../../src/config/parse.js';
import { settingsReference } from '../../src/config/settings-reference.js';
import type { GatewayConfigError } from '../../src/errors.js';

function parseWithWarnings(env: Record<string, string>) {
  const warnings: ConfigWarning[] = [];
  const config = parseConfig(env, { onWarning: (warning) => warnings.push(warning) });
  return { config, warnings };
}

// [old name, new name, config key, a value, what it reads as, another value (for both set)]
const RENAMED = [
  ['DEFAULT_LIST_SIZE', 'DEMAND_CONTROL_LIST_SIZE', 'limits.defaultListSize', '3', 3, '7'],
  ['CLIENT_NAME_CLAIM', 'CLIENT_AWARENESS_NAME_CLAIM', 'clientAwareness.nameClaim', 'azp', 'azp', 'sub'],
  ['CLIENT_VERSION_CLAIM', 'CLIENT_AWARENESS_VERSION_CLAIM', 'clientAwareness.versionClaim', 'ver', 'ver', 'sub'],
  // ADR 039: generic names other software in the same environment also sets.
  ['HOST', 'GATEWAY_LISTEN_HOST', 'host', '127.0.0.1', '127.0.0.1', '::1'],
  ['PORT', 'GATEWAY_LISTEN_PORT', 'port', '8080', 8080, '9090'],
  ['LOG_LEVEL', 'GATEWAY_LOG_LEVEL', 'log.level', 'warn', 'warn', 'error'],
  ['LOG_PRETTY', 'GATEWAY_LOG_PRETTY', 'log.pretty', 'true', true, 'false'],
  ['API_KEYS', 'GATEWAY_API_KEYS', 'apiKey.keys', 'app:k1', [{ consumer: 'app', key: 'k1' }], 'other:k2'],
  ['API_KEY_HEADER', 'GATEWAY_API_KEY_HEADER', 'apiKey.header', 'x-key', 'x-key', 'x-other-key'],
  ['REDIS_URL', 'GATEWAY_REDIS_URL', 'rateLimit.redisUrl', 'redis://a:6379', 'redis://a:6379', 'redis://b:6379'],
  ['HEADER_RULES', 'GATEWAY_HEADER_RULES', 'headerRules.rules', '{"all":[]}', { all: [] }, '{"subgraphs":{}}'],
  [
    'HEADER_RULES_MAX_VALUE_BYTES',
    'GATEWAY_HEADER_RULES_MAX_VALUE_BYTES',
    'headerRules.maxValueBytes',
    '2kb',
    2048,
    '3kb',
  ],
  [
    'HEADER_RULES_MAX_TOTAL_BYTES',
    'GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES',
    'headerRules.maxTotalBytes',
    '16kb',
    16384,
    '32kb',
  ],
  [
    'RESPONSE_HEADERS',
    'GATEWAY_RESPONSE_HEADERS',
    'responseHeaders.headers',
    'x-a:1',
    [{ name: 'x-a', value: '1' }],
    'x-b:2',
  ],
] as const;

describe('renamed settings', () => {
  it.each(RENAMED)('%s still sets what %s sets, with a warning naming both', (old, now, key, raw, value) => {
    const { config, warnings } = parseWithWarnings({ [old]: raw });
    expect(settingOf(config, key)).toEqual(value);
    expect(warnings).toContainEqual({ setting: old, message: expect.stringContaining(`renamed ${now}`) });
  });

  it.each(RENAMED)(
    '%s and %s both set: the new name wins and the old one is reported',
    (old, now, key, raw, _, newer) => {
      const { config, warnings } = parseWithWarnings({ [old]: raw, [now]: newer });
      const alone = parseConfig({ [now]: newer });
      expect(settingOf(config, key)).toEqual(settingOf(alone, key));
      expect(settingOf(config, key)).not.toEqual(settingOf(parseConfig({ [old]: raw }), key));
      expect(warnings).toContainEqual({ setting: old, message: expect.stringContaining(`${now} is set too`) });
    },
  );

  it('a bad value under the old name is refused naming the old name', () => {
    expect(() => parseConfig({ DEFAULT_LIST_SIZE: 'many' })).toThrow(/DEFAULT_LIST_SIZE: expected an integer/);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/- PORT: expected an integer/);
  });

  it('bad values under old and new names are all reported, each under the name it was set by', () => {
    let issues: readonly { field: string }[] = [];
    try {
      parseConfig({ PORT: 'x', GATEWAY_LOG_LEVEL: 'loud', API_KEYS: 'no-colon', GATEWAY_HEADER_RULES: '{bad' });
    } catch (error) {
      issues = (error as GatewayConfigError).issues;
    }
    expect(issues.map((issue) => issue.field).sort()).toEqual([
      'API_KEYS',
      'GATEWAY_HEADER_RULES',
      'GATEWAY_LOG_LEVEL',
      'PORT',
    ]);
  });

  it('the new names are the ones read without a warning', () => {
    const { warnings } = parseWithWarnings(Object.fromEntries(RENAMED.map(([, now, , raw]) => [now, raw])));
    expect(warnings.filter((warning) => warning.message.includes('deprecated'))).toEqual([]);
  });

  it('no former name is a current name, and none is listed twice', () => {
    const current = new Set(CONFIG_FIELDS.map((field) => field.env));
    const former = CONFIG_FIELDS.flatMap((field) => field.formerEnv ?? []);
    expect(former.filter((name) => current.has(name))).toEqual([]);
    expect(new Set(former).size).toBe(former.length);
    expect(former.sort()).toEqual(RENAMED.map(([old]) => old).sort());
  });

  it('the settings reference names each old name', () => {
    const reference = settingsReference();
    for (const [old, now] of RENAMED) {
      const row = reference.split('\n').find((line) => line.startsWith(`| \`${now}\``));
      expect(row).toContain(`formerly \`${old}\``);
    }
  });
});
