// A plugin's settings are one group in the config (config.jwt is jwtAuth's options) and one
// object in the config file; the flat file keys they had before still work, with a warning.
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type ConfigWarning, parseConfig, settingOf } from '../../src/config/parse.js';
import type { GatewayConfigError } from '../../src/errors.js';
import { defaultOf } from '../../src/settings/kinds.js';

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
      // An object naming a member is the group, so a typo there is named; one naming none is read as
      // the old value (headerRules' was an object), and refused by the store's own check.
      expect(issuesOf({ entityCache: { store: 'memory', maxByte: 1 } })).toEqual([
        expect.stringMatching(/^gateway\.json: entityCache\.maxByte: unknown setting/),
      ]);
      expect(issuesOf({ entityCache: { stor: 'memory' } })).toEqual([
        expect.stringMatching(/^gateway\.json: entityCache: expected one of off \| memory \| redis/),
      ]);
    });
  });

  describe('headerRules, clientAwareness, responseHeaders', () => {
    const rules = { all: [{ propagate: { named: 'x-tenant' } }] };

    it('reads each group: the rules and their limits, the claims, the headers', () => {
      const { config, warnings } = fromFile({
        headerRules: { rules, maxValueBytes: '2kb' },
        clientAwareness: { nameClaim: 'azp' },
        responseHeaders: { headers: 'x-served-by:gw' },
      });
      expect(config.headerRules).toEqual({ rules, maxValueBytes: 2048, maxTotalBytes: 8192 });
      expect(config.clientAwareness).toEqual({ nameClaim: 'azp', versionClaim: 'client_version' });
      expect(config.responseHeaders.headers).toEqual([{ name: 'x-served-by', value: 'gw' }]);
      expect(warnings.filter((warning) => warning.message.startsWith('deprecated'))).toEqual([]);
    });

    it('an old file keeps its meaning: the rules object, the header list and the flat keys, with warnings', () => {
      const { config, warnings } = fromFile({
        headerRules: rules,
        headerRulesMaxTotalBytes: '4kb',
        clientVersionClaim: 'ver',
        responseHeaders: [{ name: 'x-served-by', value: 'gw' }],
      });
      expect(config.headerRules).toEqual({ rules, maxValueBytes: 4096, maxTotalBytes: 4096 });
      expect(config.clientAwareness.versionClaim).toBe('ver');
      expect(config.responseHeaders.headers).toEqual([{ name: 'x-served-by', value: 'gw' }]);
      const deprecated = warnings.filter((warning) => warning.message.startsWith('deprecated'));
      expect(deprecated.map((warning) => `${warning.setting}: ${warning.message.split(';')[0]}`).sort()).toEqual([
        'gateway.json: clientVersionClaim: deprecated: now clientAwareness.versionClaim (clientAwareness is an object in the file)',
        'gateway.json: headerRules: deprecated: now headerRules.rules (headerRules is an object in the file)',
        'gateway.json: headerRulesMaxTotalBytes: deprecated: now headerRules.maxTotalBytes (headerRules is an object in the file)',
        'gateway.json: responseHeaders: deprecated: now responseHeaders.headers (responseHeaders is an object in the file)',
      ]);
    });

    it('with both, the group wins; a group naming no setting of its own is refused', () => {
      const { config, warnings } = fromFile({
        clientAwareness: { nameClaim: 'azp' },
        clientNameClaim: 'sub',
        headerRules: { maxValueBytes: '1kb' },
        headerRulesMaxValueBytes: '3kb',
      });
      expect(config.clientAwareness.nameClaim).toBe('azp');
      expect(config.headerRules.maxValueBytes).toBe(1024);
      expect(warnings).toContainEqual({
        setting: 'gateway.json: clientNameClaim',
        message: 'deprecated and ignored: clientAwareness.nameClaim is set too, and wins',
      });
      expect(issuesOf({ clientAwareness: { nameClam: 'azp' } })).toEqual([
        expect.stringMatching(/^gateway\.json: clientAwareness\.nameClam: unknown setting/),
      ]);
      expect(issuesOf({ clientAwareness: 'azp' })).toEqual(['gateway.json: clientAwareness: expected an object']);
    });
  });

  describe('cors: the origin policy, named as Apollo Router names it', () => {
    it('reads the group; an old flat key still works with a warning; with both, the group wins', () => {
      const { config, warnings } = fromFile({
        cors: { origins: ['https://app.example'], maxAgeSeconds: 60 },
        corsMaxAgeSeconds: 5,
        corsAllowCredentials: true,
      });
      expect(config.cors).toMatchObject({
        origins: ['https://app.example'],
        maxAgeSeconds: 60,
        allowCredentials: true,
      });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: corsMaxAgeSeconds',
        message: 'deprecated and ignored: cors.maxAgeSeconds is set too, and wins',
      });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: corsAllowCredentials',
        message: expect.stringMatching(/^deprecated: now cors\.allowCredentials/),
      });
    });

    it('still refuses "*" with credentials, however it was set', () => {
      expect(issuesOf({ cors: { origins: ['*'] }, corsAllowCredentials: true })).toEqual([
        expect.stringMatching(/^CORS_ORIGINS: "\*" cannot be combined with CORS_ALLOW_CREDENTIALS/),
      ]);
    });
  });

  describe('the core settings: subscriptions, limits, supergraph, subgraphDefaults, http, metrics, tracing, log, shutdown, trustedDocuments', () => {
    it('reads each group from its object in the file, without a warning', () => {
      const { config, warnings } = fromFile({
        subscriptions: { maxOpen: 500, slowClient: 'drop-oldest' },
        limits: { maxDepth: 9, maxCost: 300, batchingMaxOperations: 4, maxResponseBytes: '1mb' },
        supergraph: { path: 'graph/supergraph.graphql', pollIntervalMs: 0 },
        subgraphDefaults: { timeoutMs: 1500, retries: 2, circuitBreaker: false },
        http: { bodyLimitBytes: '512kb', requestTimeoutMs: 20_000, compression: false },
        metrics: { enabled: true, port: 9464 },
        tracing: { exporterOtlpEndpoint: 'http://collector:4318', tracesSampler: 'always_on' },
        log: { level: 'debug' },
        shutdown: { graceMs: 3000 },
        trustedDocuments: { manifestPath: 'pq.json', mode: 'allow-ids' },
      });
      expect(config).toMatchObject({
        subscriptions: { maxOpen: 500, slowClient: 'drop-oldest', enabled: true },
        limits: { maxDepth: 9, maxCost: 300, batchingMaxOperations: 4, maxResponseBytes: 1024 ** 2, maxTokens: 5000 },
        supergraph: { path: '/srv/graph/supergraph.graphql', pollIntervalMs: 0 },
        subgraphDefaults: { timeoutMs: 1500, retries: 2, circuitBreaker: false, poolConnections: 128 },
        http: { bodyLimitBytes: 512 * 1024, requestTimeoutMs: 20_000, compression: false },
        metrics: { enabled: true, port: 9464, path: '/metrics' },
        tracing: { exporterOtlpEndpoint: 'http://collector:4318/', tracesSampler: 'always_on' },
        log: { level: 'debug', pretty: false },
        shutdown: { graceMs: 3000, delayMs: 0 },
        trustedDocuments: { manifestPath: '/srv/pq.json', mode: 'allow-ids' },
      });
      expect(warnings.filter((warning) => warning.message.startsWith('deprecated'))).toEqual([]);
    });

    it('keeps the settings that name no feature group at the top (the process, the GraphQL endpoint)', () => {
      const { config } = fromFile({ port: 5000, graphqlPath: '/api', maskErrors: false, queryPlanExecutor: 'apollo' });
      expect(config).toMatchObject({ port: 5000, graphqlPath: '/api', maskErrors: false, queryPlanExecutor: 'apollo' });
    });

    // Every setting that moved into a group, read from its old flat key: same value, a warning naming the new place.
    const moved = CONFIG_FIELDS.filter((field) => field.formerKey !== undefined)
      .map((field) => ({ field, value: defaultOf(field.parse, 'production') }))
      .filter(({ value }) => value !== undefined);

    it('covers every setting of the core groups', () => {
      const groups = new Set(moved.map(({ field }) => field.key.split('.')[0]));
      for (const group of ['subscriptions', 'limits', 'supergraph', 'subgraphDefaults', 'http', 'metrics']) {
        expect(groups).toContain(group);
      }
      for (const group of ['tracing', 'log', 'shutdown']) expect(groups).toContain(group);
    });

    it.each(moved.map(({ field, value }) => [field.formerKey as string, field.key, value] as const))(
      'the flat key %s still sets %s, with a warning',
      (formerKey, key, value) => {
        const { config, warnings } = fromFile({ [formerKey]: value });
        expect(settingOf(config, key as Parameters<typeof settingOf>[1])).toEqual(
          key === 'supergraph.path' ? `/srv/${value}` : value,
        );
        expect(warnings).toContainEqual({
          setting: `gateway.json: ${formerKey}`,
          message: expect.stringMatching(new RegExp(`^deprecated: now ${key.replace('.', '\\.')} `)),
        });
      },
    );

    it('old flat keys of a real file keep their values; with both, the group wins', () => {
      const { config, warnings } = fromFile({
        subscriptionMaxOpen: 700,
        maxDepth: 8,
        subgraphTimeoutMs: 900,
        subgraphRetries: 0,
        logLevel: 'warn',
        otelServiceName: 'edge',
        trustedDocuments: 'pq.json',
        trustedDocumentsMode: 'allow-ids',
        metricsEnabled: true,
        shutdown: { graceMs: 4000 },
        shutdownGraceMs: 1000,
      });
      expect(config).toMatchObject({
        subscriptions: { maxOpen: 700 },
        limits: { maxDepth: 8 },
        subgraphDefaults: { timeoutMs: 900, retries: 0 },
        log: { level: 'warn' },
        tracing: { serviceName: 'edge' },
        trustedDocuments: { manifestPath: '/srv/pq.json', mode: 'allow-ids' },
        metrics: { enabled: true },
        shutdown: { graceMs: 4000 },
      });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: trustedDocuments',
        message: expect.stringMatching(/^deprecated: now trustedDocuments\.manifestPath/),
      });
      expect(warnings).toContainEqual({
        setting: 'gateway.json: shutdownGraceMs',
        message: 'deprecated and ignored: shutdown.graceMs is set too, and wins',
      });
    });

    it('the environment variables keep their names and still win over the file', () => {
      const { config } = fromFile(
        { subscriptions: { maxOpen: 10 }, http: { bodyLimitBytes: '1mb' } },
        { SUBSCRIPTION_MAX_OPEN: '20', BODY_LIMIT: '2kb', MAX_DEPTH: '4', OTEL_SERVICE_NAME: 'gw' },
      );
      expect([config.subscriptions.maxOpen, config.http.bodyLimitBytes]).toEqual([20, 2048]);
      expect([config.limits.maxDepth, config.tracing.serviceName]).toEqual([4, 'gw']);
    });

    it('refuses an unknown key inside a core group, and names a bad value by its group', () => {
      expect(issuesOf({ limits: { maxDeep: 3 }, http: { bodyLimitBytes: 'lots' } }).sort()).toEqual([
        expect.stringMatching(/^gateway\.json: http\.bodyLimitBytes: /),
        expect.stringMatching(/^gateway\.json: limits\.maxDeep: unknown setting \(expected maxDepth, /),
      ]);
    });
  });
});
