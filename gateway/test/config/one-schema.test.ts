// One schema per value: the environment variable and the plugin option it becomes are checked
// by the same valibot schema object, so they cannot disagree on a range again (MAX_COST was
// 0..1e9 for the variable and >= 1 unbounded for the option; RATE_LIMIT_WINDOW 100 ms..1 day
// and 1 ms..2^31 ms).
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, parseConfig, settingOf } from '../../src/config/parse.js';
import { PluginOptionsError } from '../../src/errors.js';
import { DEMAND_CONTROL_VALUES, demandControl } from '../../src/plugins/demand-control/index.js';
import { HEADER_RULES_VALUES, headerRules } from '../../src/plugins/header-rules/index.js';
import { JWT_VALUES } from '../../src/plugins/jwt/options.js';
import { METRICS_VALUES } from '../../src/plugins/metrics/settings.js';
import { OPERATION_LIMIT_VALUES, operationLimits } from '../../src/plugins/operation-limits/index.js';
import {
  checkOptions as checkRateLimit,
  RATE_LIMIT_VALUES,
  type RateLimitOptions,
} from '../../src/plugins/rate-limit/options.js';
import { RESILIENCE_FIELDS } from '../../src/resilience/per-subgraph.js';
import { checkRetryOptions } from '../../src/resilience/retry-policy.js';
import { RESILIENCE_VALUES } from '../../src/resilience/settings.js';
import { defaultOf, readValue } from '../../src/settings/kinds.js';

const schemaOf = (env: string) => CONFIG_FIELDS.find((field) => field.env === env)?.parse;

describe('one schema per value', () => {
  it.each([
    ['RATE_LIMIT_MAX', RATE_LIMIT_VALUES.max],
    ['RATE_LIMIT_WINDOW', RATE_LIMIT_VALUES.windowMs],
    ['RATE_LIMIT_FAILURE_MODE', RATE_LIMIT_VALUES.failureMode],
    ['MAX_DEPTH', OPERATION_LIMIT_VALUES.maxDepth],
    ['MAX_ALIASES', OPERATION_LIMIT_VALUES.maxAliases],
    ['MAX_ROOT_FIELDS', OPERATION_LIMIT_VALUES.maxRootFields],
    ['MAX_CHARACTERS', OPERATION_LIMIT_VALUES.maxCharacters],
    ['MAX_FIELDS', OPERATION_LIMIT_VALUES.maxFields],
    ['DEMAND_CONTROL_LIST_SIZE', DEMAND_CONTROL_VALUES.defaultListSize],
    ['METRICS_PORT', METRICS_VALUES.port],
    ['METRICS_MAX_OPERATION_NAMES', METRICS_VALUES.maxOperationNames],
    ['METRICS_OPERATION_NAME_MIN_COUNT', METRICS_VALUES.operationNameMinCount],
    ['GATEWAY_HEADER_RULES_MAX_VALUE_BYTES', HEADER_RULES_VALUES.maxValueBytes],
    ['GATEWAY_HEADER_RULES_MAX_TOTAL_BYTES', HEADER_RULES_VALUES.maxTotalBytes],
    ['JWT_JWKS_TIMEOUT_MS', JWT_VALUES.jwksTimeoutMs],
    ['JWT_JWKS_COOLDOWN_MS', JWT_VALUES.jwksCooldownMs],
    ['JWT_JWKS_CACHE_MAX_AGE_MS', JWT_VALUES.jwksCacheMaxAgeMs],
    ['JWT_CLOCK_TOLERANCE_S', JWT_VALUES.clockToleranceSec],
  ])('%s is read with the schema its plugin option is checked with', (env, schema) => {
    expect(schemaOf(env)).toBe(schema);
  });

  it('every SUBGRAPH_* retry and breaker setting is read with the schema the data source checks', () => {
    for (const { key, parse } of RESILIENCE_FIELDS) expect(parse).toBe(RESILIENCE_VALUES[key]);
  });

  // Behaviour at the edges, both ways: what the variable refuses, the option refuses.
  it.each([
    ['MAX_DEPTH', 1001, () => operationLimits({ ...limits(), maxDepth: 1001 })],
    ['MAX_DEPTH', 0, () => operationLimits({ ...limits(), maxDepth: 0 })],
    ['MAX_COST', 1_000_000_001, () => demandControl({ maxCost: 1_000_000_001 })],
    ['RATE_LIMIT_WINDOW', 99, () => checkRateLimit({ max: 10, windowMs: 99 } as RateLimitOptions)],
    [
      'RATE_LIMIT_MAX',
      1_000_000_001,
      () => checkRateLimit({ max: 1_000_000_001, windowMs: 60_000 } as RateLimitOptions),
    ],
    ['GATEWAY_HEADER_RULES_MAX_VALUE_BYTES', 2 * 1024 ** 2, () => headerRules({ maxValueBytes: 2 * 1024 ** 2 })],
    [
      'SUBGRAPH_RETRIES',
      11,
      () => checkRetryOptions({ maxRetries: 11, backoffMs: 50, budgetRatio: 0.1, budgetMinPerSecond: 10 }),
    ],
  ])('%s=%s is refused as a variable and as an option', (env, value, build) => {
    expect(() => parseConfig({ [env]: String(value) })).toThrow(new RegExp(`${env}: expected`));
    expect(build).toThrow(PluginOptionsError);
  });

  it('an option is typed: a string the variable would accept is refused', () => {
    expect(() => demandControl({ maxCost: '500' as unknown as number })).toThrow(
      /maxCost: expected an integer from 1 to 1000000000, got "500"/,
    );
    expect(parseConfig({ MAX_COST: '500' }).limits.maxCost).toBe(500);
  });
});

function limits() {
  return { maxDepth: 10, maxAliases: 30, maxRootFields: 20, maxCharacters: 20_000, maxFields: 500 };
}

// The schema is the only place a default lives: the config parser takes it from there, and
// every default must be a value its own schema accepts as it is (a default out of range, or in
// the wrong form, would otherwise start a gateway no operator could configure that way).
describe('defaults live in the schemas', () => {
  const withDefaults = CONFIG_FIELDS.flatMap((field) =>
    (['production', 'development'] as const)
      .map((env) => ({ env, field, value: defaultOf(field.parse, env) }))
      .filter(({ value }) => value !== undefined),
  );

  it('most settings have one, read from the schema by parseConfig', () => {
    expect(withDefaults.length).toBeGreaterThan(100);
    const production = parseConfig({});
    const development = parseConfig({ GATEWAY_ENV: 'development' });
    for (const { env, field, value } of withDefaults) {
      if (field.key === 'supergraph.path' || field.key === 'env') continue;
      expect([field.env, settingOf(env === 'production' ? production : development, field.key)]).toEqual([
        field.env,
        value,
      ]);
    }
  });

  it.each(withDefaults.map(({ env, field, value }) => [field.env, env, value] as const))(
    '%s (%s): the default %j is a value its schema accepts unchanged',
    (name, env, value) => {
      const field = CONFIG_FIELDS.find((candidate) => candidate.env === name);
      expect(readValue(field?.parse as never, value)).toEqual({ ok: true, value });
      void env;
    },
  );

  it('GATEWAY_ENV=development changes only the defaults it should', () => {
    const differing = CONFIG_FIELDS.filter(
      (field) => defaultOf(field.parse, 'development') !== defaultOf(field.parse, 'production'),
    ).map((field) => field.env);
    expect(differing.sort()).toEqual([
      'CORS_ORIGINS',
      'GATEWAY_LOG_PRETTY',
      'INTROSPECTION',
      'LANDING_PAGE',
      'MASK_ERRORS',
      'SUBGRAPH_ERRORS',
    ]);
  });
});
