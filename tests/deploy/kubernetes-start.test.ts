import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { COMPLEX_QUERY, GET_USER_WITH_PRODUCTS } from '@fedgw/subgraphs';
import {
  available,
  freePort,
  postGraphQL,
  type RunningGateway,
  type RunningSubgraph,
  startGateway,
  startRedis,
  startSubgraphs,
  subgraphUrlEnv,
  type TestRedis,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGatewayConfig } from './checks.js';
import { componentDirs, DEPLOY_ROOT, kustomize } from './kustomize.js';

// The Deployment's own environment, run: the compiled gateway started with exactly the
// variables deployment.yaml sets (the .example secrets, the ConfigMaps' files written where
// the pod mounts them, under a temporary root), against the real subgraphs and a real
// redis-server. Only addresses change: ports, and the URLs of Redis and the subgraphs.

/** The key whose SHA-256 secrets.env.example lists for `example-app`. */
const EXAMPLE_API_KEY = 'example-app-key-change-me';

const build = kustomize(DEPLOY_ROOT, componentDirs());
const parsed = parseGatewayConfig(build);

// The Deployment's environment counts in Redis: without redis-server the suite skips (listed at the end).
describe.skipIf(!available('redis-server', import.meta.url))(
  'deploy/kubernetes: the gateway starts with the Deployment environment',
  () => {
    const root = mkdtempSync(join(tmpdir(), 'fedgw-pod-'));
    let subgraphs: Record<string, RunningSubgraph>;
    let redis: TestRedis;
    let gateway: RunningGateway;
    let metricsPort: number;

    beforeAll(async () => {
      expect(parsed.problems).toEqual([]);
      for (const [path, text] of parsed.files) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      [subgraphs, redis, metricsPort] = await Promise.all([startSubgraphs(), startRedis(), freePort()]);
      const env = Object.fromEntries(
        Object.entries(parsed.env).map(([name, value]) => [name, parsed.files.has(value) ? join(root, value) : value]),
      );
      gateway = await startGateway('nest-fastify', {
        ...env,
        GATEWAY_LISTEN_HOST: '127.0.0.1',
        GATEWAY_LISTEN_PORT: '0',
        METRICS_PORT: String(metricsPort),
        GATEWAY_REDIS_URL: redis.url,
        ...subgraphUrlEnv(subgraphs),
      });
    });

    afterAll(async () => {
      await gateway?.stop('SIGKILL');
      await Promise.all([...Object.values(subgraphs ?? {}).map((s) => s.stop()), redis?.stop()]);
      rmSync(root, { recursive: true, force: true });
    });

    it('is ready, and answers a trusted operation for a client with an API key, counted in Redis', async () => {
      expect((await fetch(`${gateway.origin}/ready`)).status).toBe(200);
      const answer = await postGraphQL(
        gateway.url,
        { query: GET_USER_WITH_PRODUCTS, variables: { userId: 'user-5' } },
        { 'x-api-key': EXAMPLE_API_KEY },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data?.user).toMatchObject({ id: 'user-5' });
      expect(answer.headers.get('ratelimit-limit')).toBe('600');
      // Counted in Redis (shared by every replica), keyed by the API key's consumer.
      expect(await redis.command('KEYS gw:rl:*')).toContain('gw:rl:api-key:example-app');
    });

    it('refuses a client without an API key, and an operation outside the manifest', async () => {
      const anonymous = await postGraphQL(gateway.url, { query: COMPLEX_QUERY, variables: { userId: 'user-5' } });
      expect(anonymous.status).toBe(401);
      const untrusted = await postGraphQL(gateway.url, { query: '{ __typename }' }, { 'x-api-key': EXAMPLE_API_KEY });
      expect(untrusted.status).toBe(400);
      expect(untrusted.body.errors?.[0]?.extensions?.code).toBe('QUERY_NOT_IN_SAFELIST');
    });

    it('serves metrics on METRICS_PORT, not on the GraphQL port', async () => {
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# HELP /m);
      expect((await fetch(`${gateway.origin}/metrics`)).status).toBe(404);
    });

    it('on SIGTERM turns unready at once and keeps serving for SHUTDOWN_DELAY_MS, then exits 0', async () => {
      gateway.child.kill('SIGTERM');
      await gateway.untilLog({ msg: 'shutting down', signal: 'SIGTERM' });
      expect((await fetch(`${gateway.origin}/ready`)).status).toBe(503);
      // Still inside the delay: a request sent now is answered (load balancers may not have noticed yet).
      const late = await postGraphQL(
        gateway.url,
        { query: GET_USER_WITH_PRODUCTS, variables: { userId: 'user-6' } },
        { 'x-api-key': EXAMPLE_API_KEY },
      );
      expect(late.status).toBe(200);
      expect(await gateway.exited).toBe(0);
    });
  },
);
