import { describe, expect, it } from 'vitest';
import { type ParsedMetrics, parseMetrics } from '../../../../tests/contract/metrics-scrape.js';
import { parseConfig } from '../../../src/config/parse.js';
import type { GatewayEvent } from '../../../src/contract/index.js';
import { GatewayConfigError } from '../../../src/errors.js';
import { METRICS_DEFAULTS, type MetricsPlugin, metrics } from '../../../src/plugins/metrics/index.js';
import { issueFields, optionsError } from '../helpers/options-error.js';

const cwd = '/srv/gateway';

function configIssues(env: Record<string, string>): Record<string, string> {
  try {
    parseConfig(env, { cwd });
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayConfigError);
    return Object.fromEntries((error as GatewayConfigError).issues.map((issue) => [issue.field, issue.message]));
  }
  throw new Error('expected parseConfig to throw');
}

/** The plugin's own scrape, parsed as Prometheus parses it. */
async function scrapeOf(plugin: MetricsPlugin): Promise<ParsedMetrics> {
  return parseMetrics((await plugin.endpoint.scrape()).body);
}

describe('metrics configuration', () => {
  it('is off by default, on /metrics of the main port, with 100 operation names', () => {
    const config = parseConfig({}, { cwd });
    expect(config.metrics).toMatchObject({
      enabled: false,
      path: '/metrics',
      maxOperationNames: 100,
      operationNameMinCount: 10,
    });
    expect(config.metrics.port).toBeUndefined();
    expect([config.metrics.path, config.metrics.maxOperationNames]).toEqual([
      METRICS_DEFAULTS.path,
      METRICS_DEFAULTS.maxOperationNames,
    ]);
  });

  it('names every bad field at once', () => {
    const issues = configIssues({
      METRICS_ENABLED: 'yes',
      METRICS_PORT: '70000',
      METRICS_PATH: 'metrics',
      METRICS_MAX_OPERATION_NAMES: '-1',
      METRICS_OPERATION_NAME_MIN_COUNT: '0',
    });
    expect(Object.keys(issues).sort()).toEqual([
      'METRICS_ENABLED',
      'METRICS_MAX_OPERATION_NAMES',
      'METRICS_OPERATION_NAME_MIN_COUNT',
      'METRICS_PATH',
      'METRICS_PORT',
    ]);
  });

  it('refuses METRICS_PORT equal to GATEWAY_LISTEN_PORT; a port for metrics that are off is only a warning', () => {
    expect(configIssues({ METRICS_ENABLED: 'true', GATEWAY_LISTEN_PORT: '8080', METRICS_PORT: '8080' })).toEqual({
      METRICS_PORT: 'must differ from GATEWAY_LISTEN_PORT (8080): unset it to serve metrics on the main port',
    });
    expect(() => parseConfig({ METRICS_PORT: '9100' }, { cwd })).not.toThrow();
    const warnings: unknown[] = [];
    parseConfig({ METRICS_PORT: '9100' }, { cwd, onWarning: (warning) => warnings.push(warning) });
    expect(warnings).toEqual([
      { setting: 'METRICS_PORT', message: 'METRICS_PORT has no effect: it needs METRICS_ENABLED=true' },
    ]);
  });

  it('refuses a main-port METRICS_PATH the gateway already serves, not one on its own port', () => {
    expect(configIssues({ METRICS_ENABLED: 'true', METRICS_PATH: '/health' })).toHaveProperty('METRICS_PATH');
    expect(configIssues({ METRICS_ENABLED: 'true', GRAPHQL_PATH: '/q', METRICS_PATH: '/q' })).toHaveProperty(
      'METRICS_PATH',
    );
    const own = parseConfig({ METRICS_ENABLED: 'true', METRICS_PORT: '9100', METRICS_PATH: '/health' }, { cwd });
    expect([own.metrics.port, own.metrics.path]).toEqual([9100, '/health']);
  });
});

describe('metrics plugin', () => {
  it('names every bad option', () => {
    const error = optionsError('metrics', () =>
      metrics({ maxOperationNames: -1, path: 'x', port: 70_000, defaultMetrics: 'yes', prefix: 'gw_' } as never),
    );
    expect(issueFields(error)).toEqual(['defaultMetrics', 'maxOperationNames', 'path', 'port', 'prefix']);
  });

  it('records HTTP requests by method, route and status, methods outside the known set as _OTHER', async () => {
    const plugin = metrics({ defaultMetrics: false });
    const record = plugin.endpoint.recordHttpRequest;
    if (!record) throw new Error('the endpoint records no HTTP request');
    record('POST', '/graphql', 413, 0.002);
    record('POST', '/graphql', 413, 0.004);
    record('PROPFIND', '/graphql', 404, 0.001);
    record('BREW', '_OTHER', 404, 0.001);
    const found = await scrapeOf(plugin);
    const name = 'http_server_request_duration_seconds';
    const labels = (method: string, route: string, status: string) => ({
      http_request_method: method,
      http_route: route,
      http_response_status_code: status,
    });
    expect(found.value(`${name}_count`, labels('POST', '/graphql', '413'))).toBe(2);
    expect(found.value(`${name}_sum`, labels('POST', '/graphql', '413'))).toBeCloseTo(0.006);
    expect(found.value(`${name}_count`, labels('_OTHER', '/graphql', '404'))).toBe(1);
    expect(found.value(`${name}_count`, labels('_OTHER', '_OTHER', '404'))).toBe(1);
    expect(found.samples(`${name}_count`)).toHaveLength(3);
  });

  it('turns circuit, supergraph, trusted-document, fetch and invalidation events into series', async () => {
    const plugin = metrics({ defaultMetrics: false });
    const events: GatewayEvent[] = [
      { type: 'circuit-state', subgraph: 'reviews', state: 'open' },
      { type: 'circuit-state', subgraph: 'reviews', state: 'half-open' },
      { type: 'supergraph-load', source: 'url', outcome: 'rejected', reason: 'does not compose' },
      { type: 'trusted-documents-load', outcome: 'applied', documents: 12 },
      { type: 'trusted-documents-load', outcome: 'rejected', documents: 12, reason: 'bad JSON' },
      { type: 'subgraph-fetch', subgraph: 'users', durationMs: 30_000, outcome: 'GATEWAY_TIMEOUT', retries: 0 },
      { type: 'subgraph-fetch', subgraph: 'users', durationMs: 3, outcome: 'ok', retries: 0 },
      // A code outside the registry (a custom plugin's) must not become a label value of its own.
      { type: 'subgraph-fetch', subgraph: 'users', durationMs: 3, outcome: 'TEAPOT' as never, retries: 0 },
      { type: 'subgraph-retry', subgraph: 'users', attempt: 1, code: 'SUBREQUEST_HTTP_ERROR' },
      { type: 'query-plan-cache', outcome: 'miss' },
      { type: 'query-plan-cache', outcome: 'hit' },
      { type: 'query-plan-cache', outcome: 'hit' },
      { type: 'subscription', phase: 'start' },
      { type: 'subscription', phase: 'start' },
      { type: 'subscription', phase: 'end' },
      { type: 'subscription-event', outcome: 'data' },
      { type: 'subscription-event', outcome: 'data' },
      { type: 'subscription-event', outcome: 'errors' },
      { type: 'entity-cache-invalidation', outcome: 'applied', pending: 0 },
      { type: 'entity-cache-invalidation', outcome: 'queued', pending: 1 },
      { type: 'entity-cache-invalidation', outcome: 'queued', pending: 2 },
      { type: 'entity-cache-invalidation', outcome: 'retried', pending: 1 },
    ];
    for (const event of events) plugin.onEvent?.(event);
    const found = await scrapeOf(plugin);
    expect(found.value('gateway_subgraph_circuit_state', { subgraph: 'reviews', state: 'half-open' })).toBe(1);
    expect(found.value('gateway_subgraph_circuit_state', { subgraph: 'reviews', state: 'open' })).toBe(0);
    expect(found.value('gateway_subgraph_circuit_state', { subgraph: 'reviews', state: 'closed' })).toBe(0);
    expect(found.value('gateway_supergraph_loads_total', { source: 'url', outcome: 'rejected' })).toBe(1);
    expect(found.value('gateway_trusted_documents_loads_total', { outcome: 'applied' })).toBe(1);
    expect(found.value('gateway_trusted_documents_loads_total', { outcome: 'rejected' })).toBe(1);
    expect(found.value('gateway_trusted_documents')).toBe(12);
    const fetches = 'gateway_subgraph_fetch_duration_seconds_count';
    expect(found.value(fetches, { subgraph: 'users', outcome: 'ok' })).toBe(1);
    expect(found.value(fetches, { subgraph: 'users', outcome: 'GATEWAY_TIMEOUT' })).toBe(1);
    expect(found.value(fetches, { subgraph: 'users', outcome: '__other' })).toBe(1);
    expect(found.value(`${fetches.replace('_count', '_sum')}`, { subgraph: 'users', outcome: 'GATEWAY_TIMEOUT' })).toBe(
      30,
    );
    expect(found.value('gateway_subgraph_fetch_errors_total', { subgraph: 'users', code: 'GATEWAY_TIMEOUT' })).toBe(1);
    expect(found.value('gateway_subgraph_fetch_errors_total', { subgraph: 'users', code: '__other' })).toBe(1);
    expect(found.value('gateway_subgraph_fetch_timeouts_total', { subgraph: 'users' })).toBe(1);
    expect(found.value('gateway_subgraph_retries_total', { subgraph: 'users', code: 'SUBREQUEST_HTTP_ERROR' })).toBe(1);
    expect(found.value('gateway_query_plan_cache_misses_total')).toBe(1);
    expect(found.value('gateway_query_plan_cache_hits_total')).toBe(2);
    expect(found.value('gateway_subscriptions_active')).toBe(1);
    expect(found.value('gateway_subscription_events_total', { outcome: 'data' })).toBe(2);
    expect(found.value('gateway_subscription_events_total', { outcome: 'errors' })).toBe(1);
    expect(found.value('gateway_entity_cache_invalidations_total', { outcome: 'applied' })).toBe(1);
    expect(found.value('gateway_entity_cache_invalidations_total', { outcome: 'queued' })).toBe(2);
    expect(found.value('gateway_entity_cache_invalidations_total', { outcome: 'retried' })).toBe(1);
    expect(found.value('gateway_entity_cache_invalidations_pending')).toBe(1);
    expect((await plugin.endpoint.scrape()).body).not.toContain('TEAPOT');
  });

  it('keeps two gateways in one process apart: each plugin has its own registry', async () => {
    const first = metrics();
    const second = metrics();
    first.onEvent?.({ type: 'query-plan-cache', outcome: 'miss' });
    expect((await scrapeOf(first)).value('gateway_query_plan_cache_misses_total')).toBe(1);
    expect((await scrapeOf(second)).value('gateway_query_plan_cache_misses_total')).toBe(0);
    expect((await scrapeOf(second)).type('process_resident_memory_bytes')).toBe('GAUGE');
  });
});
