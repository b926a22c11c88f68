import { request } from 'node:http';
import {
  closedPortUrl,
  freePort,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  startGateway,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphsForFile } from '../support/lifecycle.js';
import { scrape } from './metrics-scrape.js';

/**
 * Prometheus metrics on every mount, from real traffic: the compiled gateway in front of
 * real users and products subgraphs, with reviews on a closed port; the scrape is parsed
 * as Prometheus parses it and each series is checked against the traffic sent.
 */
const SECRET = 'metrics-contract-secret-that-is-long-enough-0123';
const REQUESTS = 'gateway_graphql_requests_total';
const REJECTIONS = 'gateway_graphql_rejections_total';

const subgraphs = subgraphsForFile();

async function bearer(
  subject: string,
  secret = SECRET,
  expiresAt: string | number = '5m',
): Promise<Record<string, string>> {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime(expiresAt)
    .sign(new TextEncoder().encode(secret));
  return { authorization: `Bearer ${token}` };
}

describe.each(MOUNTS)('metrics on %s', (mount) => {
  describe('served on the main port, after mixed traffic', () => {
    let gateway: RunningGateway;
    let forged: Record<string, string>;
    beforeAll(async () => {
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv({ users: subgraphs().users, products: subgraphs().products }),
        SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
        SUBGRAPH_RETRIES: '1',
        METRICS_ENABLED: 'true',
        GATEWAY_PLUGINS: 'jwt,rate-limit',
        JWT_SECRET: SECRET,
        JWT_ALGORITHMS: 'HS256',
        JWT_REQUIRED: 'false',
        RATE_LIMIT_KEY: 'sub',
        RATE_LIMIT_MAX: '3',
        // Names get their value at first sight here; the minimum count has its own test (tests/adversarial/).
        METRICS_OPERATION_NAME_MIN_COUNT: '1',
        BODY_LIMIT: '16kb',
      });
      const asUser5 = await bearer('user-5');
      const asFlood = await bearer('flood');
      forged = await bearer('user-7', 'another-secret-of-sufficient-length-0123456789');
      // Sequential, so the query-plan cache sees a known order of misses and hits.
      const traffic: [string, Record<string, string>][] = [
        ['query GetUser { user(id: "user-5") { id name } }', asUser5],
        ['query GetUser { user(id: "user-5") { id name } }', asUser5],
        ['query GetUser { user(id: "user-5") { id name } }', asUser5],
        ['query TopReviews { topProducts(first: 1) { id reviews { rating } } }', await bearer('user-6')],
        ['query Invalid { nope }', {}],
        ...Array.from({ length: 4 }, (): [string, Record<string, string>] => ['query Flood { __typename }', asFlood]),
        ['{ __typename }', forged],
        ['{ __typename }', await bearer('user-8', SECRET, Math.floor(Date.now() / 1000) - 3600)],
        ['{ __typename }', { authorization: 'Basic abc' }],
        ['{ __typename }', { authorization: 'Bearer a b' }],
      ];
      const statuses: number[] = [];
      for (const [query, headers] of traffic)
        statuses.push((await postGraphQL(gateway.url, { query }, headers)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 400, 200, 200, 200, 429, 401, 401, 401, 400]);
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('answers GET /metrics in the Prometheus text format', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      expect(result.status).toBe(200);
      expect(result.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(result.type(REQUESTS)).toBe('COUNTER');
    });

    it('counts requests by operation name, type and outcome, and times them', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      const requests = (operation_name: string, operation_type: string, outcome: string) =>
        result.value(REQUESTS, { operation_name, operation_type, outcome });
      expect(requests('GetUser', 'query', 'ok')).toBe(3);
      expect(requests('TopReviews', 'query', 'error')).toBe(1);
      expect(requests('Flood', 'query', 'ok')).toBe(3);
      // Failed validation, and refused by the rate limit before parsing: no operation was
      // resolved, so the client's name is not trusted.
      expect(requests('__unresolved', 'unknown', 'rejected')).toBe(2);
      expect(result.samples(REQUESTS)).toHaveLength(4);
      const duration = 'gateway_graphql_request_duration_seconds';
      expect(result.type(duration)).toBe('HISTOGRAM');
      expect(result.value(`${duration}_count`, { operation_name: 'GetUser', operation_type: 'query' })).toBe(3);
      expect(result.value(`${duration}_sum`, { operation_name: 'GetUser' })).toBeGreaterThan(0);
      expect(result.value(`${duration}_bucket`, { operation_name: 'GetUser', le: '+Inf' })).toBe(3);
    });

    it('counts rejections by code and authentication failures by reason', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      expect(result.value(REJECTIONS, { code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
      expect(result.value(REJECTIONS, { code: 'REQUEST_RATE_LIMITED' })).toBe(1);
      expect(result.value(REJECTIONS, { code: 'UNAUTHENTICATED' })).toBe(3);
      expect(result.value(REJECTIONS, { code: 'BAD_REQUEST' })).toBe(1);
      const auth = 'gateway_auth_failures_total';
      expect(result.value(auth, { reason: 'invalid' })).toBe(1);
      expect(result.value(auth, { reason: 'expired' })).toBe(1);
      expect(result.value(auth, { reason: 'missing' })).toBe(1);
      expect(result.value(auth, { reason: 'malformed' })).toBe(1);
    });

    it('counts query-plan cache hits and misses', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      // Planned: GetUser, TopReviews, Flood. Reused: GetUser twice, Flood twice (the 4th was rate limited).
      expect(result.value('gateway_query_plan_cache_misses_total')).toBe(3);
      expect(result.value('gateway_query_plan_cache_hits_total')).toBe(4);
    });

    it('times subgraph fetches and counts their errors and retries per subgraph', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      const fetches = 'gateway_subgraph_fetch_duration_seconds';
      expect(result.value(`${fetches}_count`, { subgraph: 'users' })).toBe(3);
      expect(result.value(`${fetches}_count`, { subgraph: 'products' })).toBe(1);
      expect(result.value(`${fetches}_count`, { subgraph: 'reviews' })).toBe(1);
      const errors = 'gateway_subgraph_fetch_errors_total';
      expect(result.value(errors, { subgraph: 'reviews', code: 'SUBREQUEST_HTTP_ERROR' })).toBe(1);
      expect(result.samples(errors)).toHaveLength(1);
      expect(
        result.value('gateway_subgraph_retries_total', { subgraph: 'reviews', code: 'SUBREQUEST_HTTP_ERROR' }),
      ).toBe(1);
      expect(result.value('gateway_subgraph_fetch_timeouts_total', { subgraph: 'reviews' })).toBe(0);
      expect(result.value('gateway_supergraph_loads_total', { source: 'file', outcome: 'applied' })).toBe(1);
    });

    it("exports prom-client's default process metrics under their standard names", async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      expect(result.value('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 ** 2);
      expect(result.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      for (const name of ['nodejs_eventloop_lag_seconds', 'process_cpu_seconds_total', 'nodejs_gc_duration_seconds']) {
        expect(result.type(name), name).toBeDefined();
      }
    });

    it('labels nothing a client sent: no token, address or user id', async () => {
      const { text } = await scrape(`${gateway.origin}/metrics`);
      expect(text).not.toContain('127.0.0.1');
      expect(text).not.toContain('user-5');
      expect(text).not.toContain(forged.authorization?.slice(7, 40));
      expect(text).not.toContain('Invalid');
    });
    it('counts every HTTP request by method, route and status, refusals before GraphQL runs included', async () => {
      const graphql = new URL(gateway.url).pathname;
      const before = await scrape(`${gateway.origin}/metrics`);
      const sent: [string, string, number][] = [];
      const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string }) => {
        const status = await rawRequest(`${gateway.origin}${path}`, method, init);
        sent.push([method, path, status]);
      };
      const json = { 'content-type': 'application/json' };
      await send('POST', graphql, {
        headers: json,
        body: JSON.stringify({ query: `{ __typename }`, pad: 'x'.repeat(17_000) }),
      });
      await send('POST', graphql, { headers: json, body: '{"query": "{ __typename }"' });
      await send('OPTIONS', graphql, {
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      await send('GET', '/health', {});
      await send('GET', '/no-such-route', {});
      // Chosen by the client: a method outside the known set, a path near the GraphQL one.
      await send('PROPFIND', graphql, {});
      await send('GET', `${graphql}/`, {});
      await send('GET', `${graphql.toUpperCase()}?query=%7B__typename%7D`, {});
      expect(sent.map(([, , status]) => status)).toEqual([413, 400, 204, 200, 404, 404, 404, 404]);

      const after = await scrape(`${gateway.origin}/metrics`);
      const name = 'http_server_request_duration_seconds';
      expect(after.type(name)).toBe('HISTOGRAM');
      const added = (method: string, route: string, status: number) => {
        const labels = { http_request_method: method, http_route: route, http_response_status_code: String(status) };
        return after.value(`${name}_count`, labels) - before.value(`${name}_count`, labels);
      };
      expect(added('POST', '/graphql', 413)).toBe(1);
      expect(added('POST', '/graphql', 400)).toBe(1);
      expect(added('OPTIONS', '/graphql', 204)).toBe(1);
      expect(added('GET', '/health', 200)).toBe(1);
      expect(added('GET', '_OTHER', 404)).toBe(3);
      expect(added('_OTHER', '/graphql', 404)).toBe(1);
      // The scrape before was counted once it was answered.
      expect(added('GET', '/metrics', 200)).toBe(1);
      // The traffic of beforeAll, GraphQL's own refusals (400, 401, 429) with it.
      const graphqlPosts = after.samples(`${name}_count`, { http_request_method: 'POST', http_route: '/graphql' });
      const byStatus = Object.fromEntries(
        graphqlPosts.map((sample) => [sample.labels.http_response_status_code, sample.value]),
      );
      expect(byStatus).toEqual({ '200': 7, '400': 3, '401': 3, '413': 1, '429': 1 });
      // Bounded: the client's methods and paths are not label values.
      const values = (label: string) => new Set(after.samples(`${name}_count`).map((sample) => sample.labels[label]));
      expect(values('http_request_method')).toEqual(new Set(['POST', 'GET', 'OPTIONS', '_OTHER']));
      expect(values('http_route')).toEqual(new Set(['/graphql', '/health', '/metrics', '_OTHER']));
    });

    it('times subgraph fetches by outcome', async () => {
      const result = await scrape(`${gateway.origin}/metrics`);
      const fetches = 'gateway_subgraph_fetch_duration_seconds_count';
      expect(result.value(fetches, { subgraph: 'users', outcome: 'ok' })).toBe(3);
      expect(result.value(fetches, { subgraph: 'reviews', outcome: 'SUBREQUEST_HTTP_ERROR' })).toBe(1);
      expect(result.samples(fetches, { subgraph: 'reviews', outcome: 'ok' })).toEqual([]);
    });
  });

  describe('on METRICS_PORT, with METRICS_MAX_OPERATION_NAMES=3', () => {
    let gateway: RunningGateway;
    let metricsOrigin: string;
    beforeAll(async () => {
      const port = await freePort();
      metricsOrigin = `http://127.0.0.1:${port}`;
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv(subgraphs()),
        METRICS_ENABLED: 'true',
        METRICS_PORT: String(port),
        METRICS_PATH: '/internal/metrics',
        METRICS_MAX_OPERATION_NAMES: '3',
        METRICS_OPERATION_NAME_MIN_COUNT: '1',
      });
    });
    afterAll(async () => {
      expect(await gateway?.stop()).toBe(0);
    });

    it('serves metrics only on their own port and path', async () => {
      expect((await fetch(`${gateway.origin}/internal/metrics`)).status).toBe(404);
      expect((await fetch(`${gateway.origin}/metrics`)).status).toBe(404);
      expect((await fetch(`${metricsOrigin}/graphql`)).status).toBe(404);
      expect((await fetch(`${metricsOrigin}/health`)).status).toBe(404);
      const result = await scrape(`${metricsOrigin}/internal/metrics`);
      expect(result.status).toBe(200);
      expect(result.type(REQUESTS)).toBe('COUNTER');
      expect((await fetch(`${gateway.origin}/health`)).status).toBe(200);
    });

    it('keeps operation names bounded: past the cap they fold into __other', async () => {
      for (let i = 1; i <= 8; i++) {
        const result = await postGraphQL(gateway.url, { query: `query Op${i} { __typename }` });
        expect(result.status).toBe(200);
      }
      await postGraphQL(gateway.url, { query: '{ __typename }' });
      await postGraphQL(gateway.url, { query: 'query __Sneaky { __typename }' });
      const result = await scrape(`${metricsOrigin}/internal/metrics`);
      const names = new Set(result.samples(REQUESTS).map((sample) => sample.labels.operation_name));
      expect(names).toEqual(new Set(['Op1', 'Op2', 'Op3', '__other', '__anonymous']));
      expect(result.value(REQUESTS, { operation_name: '__other', outcome: 'ok' })).toBe(6);
      expect(result.value(REQUESTS, { operation_name: '__anonymous', outcome: 'ok' })).toBe(1);
      const histogramNames = new Set(
        result.samples('gateway_graphql_request_duration_seconds_count').map((sample) => sample.labels.operation_name),
      );
      expect(histogramNames.size).toBe(5);
    });
  });
});

/** One request with any method (fetch refuses some), its body sent as given; resolves to the status. */
function rawRequest(url: string, method: string, init: { headers?: Record<string, string>; body?: string }) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(url, { method, headers: init.headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}
