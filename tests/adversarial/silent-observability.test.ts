import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { closedPortUrl, eventually, postGraphQL, ROOT, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetrics } from '../contract/metrics-scrape.js';

// Class: an observability failure that says nothing. A trace exporter that cannot reach its
// collector must log the documented `trace export failed` warning and count the spans it lost;
// before, two copies of @opentelemetry/core were installed and the gateway set its error
// handler on the one the span processor does not report to, so an outage was silent.

/** The OpenTelemetry packages the gateway imports (gateway/package.json). */
const GATEWAY_OTEL = [
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/propagator-b3',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-grpc',
];

/** Where `dependency` resolves from `from`'s folder (a real path, so two links to one copy are one). */
function resolvedFrom(from: string, dependency: string): string | undefined {
  try {
    return realpathSync(dirname(createRequire(from).resolve(`${dependency}/package.json`)));
  } catch {
    return undefined; // not a dependency of that package
  }
}

describe('the OpenTelemetry packages the gateway loads', () => {
  it('share one copy of each OpenTelemetry package they depend on (one global error handler)', () => {
    const fromGateway = `${ROOT}gateway/package.json`;
    const copies = new Map<string, Set<string>>();
    const visit = (packageJson: string, seen: Set<string>) => {
      if (seen.has(packageJson)) return;
      seen.add(packageJson);
      const { dependencies = {} } = createRequire(packageJson)(packageJson) as {
        dependencies?: Record<string, string>;
      };
      for (const name of Object.keys(dependencies).filter((name) => name.startsWith('@opentelemetry/'))) {
        const folder = resolvedFrom(packageJson, name);
        if (!folder) continue;
        copies.set(name, (copies.get(name) ?? new Set()).add(folder));
        visit(`${folder}/package.json`, seen);
      }
    };
    const seen = new Set<string>();
    for (const name of GATEWAY_OTEL) {
      const folder = resolvedFrom(fromGateway, name);
      expect(folder, name).toBeDefined();
      copies.set(name, (copies.get(name) ?? new Set()).add(folder as string));
      visit(`${folder}/package.json`, seen);
    }
    const duplicated = [...copies]
      .filter(([, folders]) => folders.size > 1)
      .map(([name, folders]) => [name, [...folders]]);
    expect(duplicated).toEqual([]);
    expect(copies.get('@opentelemetry/core')?.size).toBe(1);
  });
});

describe('a trace exporter whose collector is down', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const collector = new URL(await closedPortUrl()).origin;
    gateway = await startGateway('fastify', {
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      // The SDK's own settings: export soon, give up soon (the SDK reads them itself).
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_EXPORTER_OTLP_TIMEOUT: '500',
      METRICS_ENABLED: 'true',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('logs `trace export failed` (no URL) and counts the lost spans in gateway_trace_spans_dropped_total', async () => {
    const result = await postGraphQL(gateway.url, { query: '{ __typename }' });
    expect(result.status).toBe(200);
    await eventually(() => {
      expect(gateway.logLines().some((line) => line.msg === 'trace export failed')).toBe(true);
    }, 20_000);
    const warning = gateway.logLines().find((line) => line.msg === 'trace export failed');
    expect(warning?.level).toBe(40);
    expect(JSON.stringify(warning)).not.toMatch(/127\.0\.0\.1|http:/);
    await eventually(async () => {
      const scrape = await fetch(`${gateway.origin}/metrics`);
      expect(scrape.status).toBe(200);
      const metrics = parseMetrics(await scrape.text());
      expect(metrics.type('gateway_trace_spans_dropped_total')).toBe('COUNTER');
      // The request's server span and its gateway.request, validate… spans: at least one.
      expect(metrics.value('gateway_trace_spans_dropped_total', { reason: 'export_failed' })).toBeGreaterThan(0);
    });
  });
});
