import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/parse.js';
import { GatewayConfigError } from '../src/errors.js';

const cwd = '/srv/gateway';

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    expect((error as GatewayConfigError).code).toBe('ERR_GATEWAY_CONFIG_INVALID');
    return (error as GatewayConfigError).issues;
  }
  throw new Error('expected parseConfig to throw');
}

describe('parseConfig', () => {
  it('fills every default for an empty environment (production, nest, fastify)', () => {
    const config = parseConfig({}, { cwd });
    expect(config).toMatchObject({
      env: 'production',
      runtime: 'nest',
      adapter: 'fastify',
      host: '0.0.0.0',
      port: 4000,
      graphqlPath: '/graphql',
      supergraph: { path: '/srv/gateway/supergraph.graphql' },
      subgraphs: {},
      subgraphDefaults: { timeoutMs: 30_000, poolConnections: 128, keepAliveMs: 30_000 },
      http: { bodyLimitBytes: 2 * 1024 * 1024 },
      introspection: false,
      landingPage: false,
      maskErrors: true,
      shutdown: { graceMs: 10_000, delayMs: 0 },
      log: { level: 'info', pretty: false },
      plugins: [],
      limits: { maxDepth: 15, maxAliases: 30, maxRootFields: 20, maxTokens: 5000, maxCharacters: 20_000 },
    });
    expect(Object.isFrozen(config.subgraphDefaults)).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.subgraphs)).toBe(true);
  });

  it('turns on introspection, the landing page and pretty logs in development, unmasked', () => {
    const config = parseConfig({ GATEWAY_ENV: 'development' }, { cwd });
    expect([config.introspection, config.landingPage, config.log.pretty, config.maskErrors]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('lets explicit settings override the environment defaults', () => {
    const config = parseConfig({ GATEWAY_ENV: 'development', INTROSPECTION: 'false', MASK_ERRORS: 'true' }, { cwd });
    expect([config.introspection, config.maskErrors]).toEqual([false, true]);
  });

  it('parses every variable', () => {
    const config = parseConfig(
      {
        GATEWAY_RUNTIME: 'bare',
        GATEWAY_ADAPTER: 'express',
        HOST: '127.0.0.1',
        PORT: '8080',
        GRAPHQL_PATH: '/api/graphql',
        SUPERGRAPH_PATH: '/etc/supergraph.graphql',
        SUBGRAPH_TIMEOUT_MS: '5000',
        SUBGRAPH_POOL_CONNECTIONS: '16',
        SUBGRAPH_KEEP_ALIVE_MS: '4000',
        BODY_LIMIT: '512kb',
        SHUTDOWN_GRACE_MS: '2000',
        SHUTDOWN_DELAY_MS: '100',
        LOG_LEVEL: 'warn',
        LOG_PRETTY: 'true',
      },
      { cwd },
    );
    expect(config).toMatchObject({
      runtime: 'bare',
      adapter: 'express',
      host: '127.0.0.1',
      port: 8080,
      graphqlPath: '/api/graphql',
      supergraph: { path: '/etc/supergraph.graphql' },
      subgraphDefaults: { timeoutMs: 5000, poolConnections: 16, keepAliveMs: 4000 },
      http: { bodyLimitBytes: 512 * 1024 },
      shutdown: { graceMs: 2000, delayMs: 100 },
      log: { level: 'warn', pretty: true },
    });
  });

  it('GATEWAY_LOG_MAX_QUEUED_BYTES: 16 MiB by default; refused at or below the log buffer, and 0 (unbounded)', () => {
    expect(parseConfig({}, { cwd }).log.maxQueuedBytes).toBe(16 * 1024 ** 2);
    expect(parseConfig({ GATEWAY_LOG_MAX_QUEUED_BYTES: '1mb' }, { cwd }).log.maxQueuedBytes).toBe(1024 ** 2);
    // 16000 is GATEWAY_LOG_BUFFER_BYTES' largest value.
    for (const value of ['16000', '0']) {
      const issues = issuesOf(() => parseConfig({ GATEWAY_LOG_MAX_QUEUED_BYTES: value }, { cwd }));
      expect(issues.map((issue) => issue.field)).toEqual(['GATEWAY_LOG_MAX_QUEUED_BYTES']);
    }
  });

  it('reads per-subgraph URL and timeout overrides, names normalised', () => {
    const config = parseConfig(
      {
        SUBGRAPH_USERS_URL: 'http://users.internal:4001/graphql',
        SUBGRAPH_USERS_TIMEOUT_MS: '250',
        SUBGRAPH_ORDER_HISTORY_URL: 'https://orders.internal/graphql',
      },
      { cwd },
    );
    expect(config.subgraphs).toEqual({
      users: { url: 'http://users.internal:4001/graphql', timeoutMs: 250 },
      order_history: { url: 'https://orders.internal/graphql' },
    });
  });

  it('reports every invalid field at once, each by name', () => {
    const issues = issuesOf(() =>
      parseConfig(
        {
          GATEWAY_ENV: 'staging',
          GATEWAY_ADAPTER: 'koa',
          PORT: '70000',
          GRAPHQL_PATH: 'graphql',
          BODY_LIMIT: 'huge',
          INTROSPECTION: 'yes',
          LOG_LEVEL: 'loud',
          SUBGRAPH_TIMEOUT_MS: '0',
          SUBGRAPH_USERS_URL: 'ftp://users',
          SUBGRAPH_REVIEWS_TIMEOUT_MS: 'soon',
          GATEWAY_ADAPTR: 'express',
        },
        { cwd },
      ),
    );
    expect(issues.map((issue) => issue.field).sort()).toEqual(
      [
        'BODY_LIMIT',
        'GATEWAY_ADAPTER',
        'GATEWAY_ADAPTR',
        'GATEWAY_ENV',
        'GRAPHQL_PATH',
        'INTROSPECTION',
        'LOG_LEVEL',
        'PORT',
        'SUBGRAPH_REVIEWS_TIMEOUT_MS',
        'SUBGRAPH_TIMEOUT_MS',
        'SUBGRAPH_USERS_URL',
      ].sort(),
    );
    expect(issues.find((issue) => issue.field === 'GATEWAY_ADAPTER')?.message).toBe(
      'expected one of fastify | express, got "koa"',
    );
    expect(issues.find((issue) => issue.field === 'PORT')?.message).toBe(
      'expected an integer from 0 to 65535, got "70000"',
    );
  });

  it('sets client timeouts, the headers timeout at most the request timeout', () => {
    expect(parseConfig({}, { cwd }).http).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
    const issues = issuesOf(() => parseConfig({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }, { cwd }));
    expect(issues).toEqual([
      { field: 'HEADERS_TIMEOUT_MS', message: 'must not exceed REQUEST_TIMEOUT_MS (6000 > 5000)' },
    ]);
  });

  describe('GATEWAY_* variables it does not own', () => {
    /** What Kubernetes injects for a Service named `name` with one port. */
    const serviceEnv = (name: string, port: number) => {
      const prefix = name.toUpperCase().replaceAll('-', '_');
      return {
        [`${prefix}_SERVICE_HOST`]: '10.0.0.12',
        [`${prefix}_SERVICE_PORT`]: String(port),
        [`${prefix}_SERVICE_PORT_HTTP`]: String(port),
        [`${prefix}_PORT`]: `tcp://10.0.0.12:${port}`,
        [`${prefix}_PORT_${port}_TCP`]: `tcp://10.0.0.12:${port}`,
        [`${prefix}_PORT_${port}_TCP_PROTO`]: 'tcp',
        [`${prefix}_PORT_${port}_TCP_PORT`]: String(port),
        [`${prefix}_PORT_${port}_TCP_ADDR`]: '10.0.0.12',
      };
    };

    it('starts with the variables Kubernetes injects for Services named gateway and gateway-admin', () => {
      const env = { ...serviceEnv('gateway', 4000), ...serviceEnv('gateway-admin', 9090), GATEWAY_ADAPTER: 'express' };
      expect(parseConfig(env, { cwd }).adapter).toBe('express');
    });

    it("ignores another tool's own GATEWAY_ variable", () => {
      expect(parseConfig({ GATEWAY_TOKEN: 'x', GATEWAY_REGION: 'eu' }, { cwd }).env).toBe('production');
    });

    it('still refuses a near miss of a variable it owns, naming the right one', () => {
      const issues = issuesOf(() =>
        parseConfig({ GATEWAY_ADAPTR: 'express', GATEWAY_PLUGIN: 'jwt', GATEWAY_RUNTME: 'bare' }, { cwd }),
      );
      expect(issues).toEqual([
        { field: 'GATEWAY_ADAPTR', message: 'unknown setting: did you mean GATEWAY_ADAPTER?' },
        { field: 'GATEWAY_PLUGIN', message: 'unknown setting: did you mean GATEWAY_PLUGINS?' },
        { field: 'GATEWAY_RUNTME', message: 'unknown setting: did you mean GATEWAY_RUNTIME?' },
      ]);
    });
  });

  it('puts every problem in the error message', () => {
    try {
      parseConfig({ PORT: 'x', LOG_LEVEL: 'y' }, { cwd });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/2 problems/);
      expect((error as Error).message).toMatch(/- PORT: /);
      expect((error as Error).message).toMatch(/- LOG_LEVEL: /);
    }
  });

  describe('with a config file (GATEWAY_CONFIG_FILE)', () => {
    const files: Record<string, string> = {
      '/srv/gateway/gateway.json': JSON.stringify({
        port: 5000,
        adapter: 'express',
        http: { bodyLimitBytes: '1mb' },
        subgraphDefaults: { timeoutMs: 2000 },
        subgraphs: { users: { url: 'http://u:1/graphql', timeoutMs: 100 } },
      }),
      '/srv/gateway/bad.json': JSON.stringify({ port: 'eighty', adaptor: 'x', subgraphs: { users: { uri: 'x' } } }),
      '/srv/gateway/broken.json': '{ not json',
    };
    const readFile = (path: string) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
      return text;
    };

    it('reads settings from the file, with the environment winning', () => {
      const config = parseConfig({ GATEWAY_CONFIG_FILE: 'gateway.json', PORT: '6000' }, { cwd, readFile });
      expect(config.port).toBe(6000);
      expect(config.adapter).toBe('express');
      expect(config.http.bodyLimitBytes).toBe(1024 * 1024);
      expect(config.subgraphDefaults.timeoutMs).toBe(2000);
      expect(config.subgraphs).toEqual({ users: { url: 'http://u:1/graphql', timeoutMs: 100 } });
    });

    it('names bad and unknown keys of the file', () => {
      const issues = issuesOf(() => parseConfig({ GATEWAY_CONFIG_FILE: 'bad.json' }, { cwd, readFile }));
      expect(issues.map((issue) => issue.field).sort()).toEqual([
        'bad.json: adaptor',
        'bad.json: port',
        'bad.json: subgraphs.users.uri',
      ]);
    });

    it('reports a missing or malformed file against GATEWAY_CONFIG_FILE', () => {
      for (const name of ['missing.json', 'broken.json']) {
        const issues = issuesOf(() => parseConfig({ GATEWAY_CONFIG_FILE: name }, { cwd, readFile }));
        expect(issues).toHaveLength(1);
        expect(issues[0]?.field).toBe('GATEWAY_CONFIG_FILE');
        expect(issues[0]?.message).toContain(name);
      }
    });
  });

  describe('plugins', () => {
    it('expands profiles and plugin names into hook order', () => {
      expect(parseConfig({ GATEWAY_PLUGINS: 'none' }, { cwd }).plugins).toEqual([]);
      expect(parseConfig({ GATEWAY_PLUGINS: 'rate-limit+api-key', API_KEYS: 'a:k' }, { cwd }).plugins).toEqual([
        'api-key',
        'rate-limit',
      ]);
      const full = parseConfig(
        {
          GATEWAY_PLUGINS: 'full,api-key',
          JWT_SECRET: 's'.repeat(32),
          JWT_ALGORITHMS: 'HS256',
          API_KEYS: 'a:k',
          HEADER_RULES: '{"all":[]}',
          RESPONSE_HEADERS: 'x-served-by:gateway',
        },
        { cwd },
      );
      expect(full.plugins).toEqual([
        'header-rules',
        'client-awareness',
        'jwt',
        'api-key',
        'rate-limit',
        'response-headers',
      ]);
    });

    it('names an unknown profile or plugin', () => {
      const issues = issuesOf(() => parseConfig({ GATEWAY_PLUGINS: 'jwt,rate-limiter' }, { cwd }));
      expect(issues).toHaveLength(1);
      expect(issues[0]?.field).toBe('GATEWAY_PLUGINS');
      expect(issues[0]?.message).toMatch(/unknown profile or plugin "rate-limiter"/);
    });

    it('requires what each enabled plugin needs, by variable name', () => {
      const issues = issuesOf(() =>
        parseConfig({ GATEWAY_PLUGINS: 'jwt,api-key,header-rules,response-headers' }, { cwd }),
      );
      expect(issues.map((issue) => issue.field).sort()).toEqual([
        'GATEWAY_API_KEYS',
        'GATEWAY_HEADER_RULES',
        'GATEWAY_RESPONSE_HEADERS',
        'JWT_ALGORITHMS',
        'JWT_JWKS_URL | JWT_JWKS_FILE | JWT_SECRET',
      ]);
    });

    it('wants exactly one JWT key source', () => {
      const issues = issuesOf(() =>
        parseConfig(
          {
            GATEWAY_PLUGINS: 'jwt',
            JWT_ALGORITHMS: 'RS256',
            JWT_JWKS_URL: 'https://idp/jwks',
            JWT_SECRET: 's'.repeat(32),
          },
          { cwd },
        ),
      );
      expect(issues).toEqual([
        {
          field: 'JWT_JWKS_URL | JWT_JWKS_FILE | JWT_SECRET',
          message: 'the jwt plugin needs exactly one key source, got 2',
        },
      ]);
    });

    it('parses JWT, API key, rate-limit and response-header settings', () => {
      const config = parseConfig(
        {
          JWT_AUDIENCE: 'api,web',
          JWT_ALGORITHMS: 'RS256,ES256',
          JWT_CLAIM_HEADERS: 'sub:x-user-id,scope:x-user-scopes',
          API_KEYS: `bench:k1,ops:sha256:${'ab'.repeat(32)}`,
          RATE_LIMIT_MAX: '20',
          RATE_LIMIT_WINDOW: '2s',
          RATE_LIMIT_KEY: 'global',
          RATE_LIMIT_COST: 'estimated',
          REDIS_URL: 'redis://127.0.0.1:6390',
          RESPONSE_HEADERS: 'x-trace-1:{uuid},x-served-by:gw',
        },
        { cwd },
      );
      expect(config).toMatchObject({
        // Each plugin's group is its options (config.jwt is what jwtAuth takes).
        jwt: {
          audience: ['api', 'web'],
          algorithms: ['RS256', 'ES256'],
          claimHeaders: { sub: 'x-user-id', scope: 'x-user-scopes' },
        },
        apiKey: {
          keys: [
            { consumer: 'bench', key: 'k1' },
            { consumer: 'ops', sha256: 'ab'.repeat(32) },
          ],
        },
        rateLimit: {
          max: 20,
          windowMs: 2000,
          keyBy: 'global',
          cost: 'estimated',
          redisUrl: 'redis://127.0.0.1:6390',
        },
        responseHeaders: {
          headers: [
            { name: 'x-trace-1', value: '{uuid}' },
            { name: 'x-served-by', value: 'gw' },
          ],
        },
      });
    });

    it('refuses the removed name-based rate-limit settings, saying why', () => {
      const issues = issuesOf(() =>
        parseConfig({ RATE_LIMIT_COSTS: 'Health:0', RATE_LIMIT_KEY: 'operation' }, { cwd }),
      );
      expect(issues.map((issue) => issue.field).sort()).toEqual(['RATE_LIMIT_COSTS', 'RATE_LIMIT_KEY']);
      expect(issues.find((issue) => issue.field === 'RATE_LIMIT_COSTS')?.message).toMatch(
        /^removed: operation names are chosen by the client/,
      );
      expect(issues.find((issue) => issue.field === 'RATE_LIMIT_KEY')?.message).toMatch(/^removed: /);
    });

    it('parses the demand-control and response-size limits, with their defaults', () => {
      expect(parseConfig({}, { cwd })).toMatchObject({
        limits: { maxCost: 25_000, defaultListSize: 10, maxResponseBytes: 10 * 1024 * 1024 },
        subgraphDefaults: { maxResponseBytes: 5 * 1024 * 1024 },
        rateLimit: { cost: 'request' },
      });
      const config = parseConfig(
        {
          MAX_COST: '900',
          DEMAND_CONTROL_LIST_SIZE: '3',
          MAX_RESPONSE_BYTES: '2mb',
          SUBGRAPH_MAX_RESPONSE_BYTES: '512kb',
          SUBGRAPH_REVIEWS_MAX_RESPONSE_BYTES: '64kb',
        },
        { cwd },
      );
      expect(config).toMatchObject({
        limits: { maxCost: 900, defaultListSize: 3, maxResponseBytes: 2 * 1024 * 1024 },
        subgraphDefaults: { maxResponseBytes: 512 * 1024 },
        subgraphs: { reviews: { maxResponseBytes: 64 * 1024 } },
      });
      const issues = issuesOf(() =>
        parseConfig({ MAX_COST: '-1', SUBGRAPH_USERS_MAX_RESPONSE_BYTES: 'lots' }, { cwd }),
      );
      expect(issues.map((issue) => issue.field)).toEqual(['MAX_COST', 'SUBGRAPH_USERS_MAX_RESPONSE_BYTES']);
    });

    it('never puts a secret value in an error message', () => {
      const secretValue = 'hunter2-very-secret';
      try {
        parseConfig({ API_KEYS: `${secretValue}`, REDIS_URL: `http://user:${secretValue}@x` }, { cwd });
        expect.unreachable();
      } catch (error) {
        const issues = (error as GatewayConfigError).issues;
        expect(issues.map((issue) => issue.field).sort()).toEqual(['API_KEYS', 'REDIS_URL']);
        expect((error as Error).message).not.toContain(secretValue);
      }
    });
  });
});
