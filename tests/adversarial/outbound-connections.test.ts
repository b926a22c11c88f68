import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  available,
  json,
  jwks,
  postGraphQL,
  ROOT,
  type RunningGateway,
  type RunningSubgraph,
  type SigningKey,
  SUPERGRAPH_PATH,
  type SubgraphName,
  signingKey,
  startGateway,
  startRedis,
  startSubgraphs,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
  type TestRedis,
  token,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../contract/otlp-receiver.js';

// Class: the gateway calls someone nobody configured. A preloaded guard refuses (and logs) every
// connection to a non-loopback address and every DNS lookup of a name other than localhost, in
// a gateway with every plugin on, through traffic, a supergraph reload and SIGTERM.

const GUARD = `${ROOT}tests/adversarial/fixtures/outbound-guard.mjs`;
const REDIS = available('redis-server', import.meta.url);
const API_KEY = 'outbound-test-key-0123456789abcdef';
const QUERY = { query: '{ topProducts(first: 2) { name reviews { rating author { name } } } }' };

let subgraphs: Record<SubgraphName, RunningSubgraph>;
let jwksServer: TestHttpServer;
let otlp: OtlpReceiver;
let redis: TestRedis | undefined;
let key: SigningKey;

beforeAll(async () => {
  key = await signingKey();
  [subgraphs, jwksServer, otlp, redis] = await Promise.all([
    startSubgraphs(),
    startTestHttpServer(json(jwks(key))),
    startOtlpReceiver(),
    REDIS ? startRedis() : Promise.resolve(undefined),
  ]);
});
afterAll(async () => {
  await Promise.all([
    ...Object.values(subgraphs ?? {}).map((s) => s.stop()),
    jwksServer?.close(),
    otlp?.close(),
    redis?.stop(),
  ]);
});

/** A gateway with every plugin and operations feature on, and the guard preloaded. */
async function guardedGateway(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'outbound-'));
  const log = join(dir, 'attempts.log');
  writeFileSync(log, '');
  const supergraph = join(dir, 'supergraph.graphql');
  copyFileSync(SUPERGRAPH_PATH, supergraph);
  const gateway = await startGateway('nest-fastify', {
    NODE_OPTIONS: `--import=${GUARD}`,
    OUTBOUND_GUARD_LOG: log,
    ...subgraphUrlEnv(subgraphs),
    SUPERGRAPH_PATH: supergraph,
    SUPERGRAPH_POLL_INTERVAL_MS: '200',
    GATEWAY_PLUGINS: 'full,api-key',
    JWT_JWKS_URL: `${jwksServer.url}/jwks.json`,
    JWT_ALGORITHMS: 'RS256',
    GATEWAY_API_KEYS: `test:${API_KEY}`,
    GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ propagate: { matching: '^x-' } }] }),
    GATEWAY_RESPONSE_HEADERS: 'x-served-by:gateway',
    ...(redis ? { GATEWAY_REDIS_URL: redis.url } : {}),
    METRICS_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    TRUSTED_DOCUMENTS: `${ROOT}docs/examples/trusted-documents/manifest.json`,
    TRUSTED_DOCUMENTS_MODE: 'allow-ids',
    INBOUND_DEDUPLICATE: 'true',
    SUBGRAPH_DEDUPLICATE: 'true',
    ...env,
  });
  return { gateway, supergraph, attempts: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

async function exercise(gateway: RunningGateway, supergraph: string) {
  const headers = { authorization: `Bearer ${await token(key)}`, 'x-api-key': API_KEY };
  for (let i = 0; i < 5; i++) expect((await postGraphQL(gateway.url, QUERY, headers)).status).toBe(200);
  // A new supergraph (the same graph, new text) is validated in a trial gateway, then applied.
  writeFileSync(supergraph, `${readFileSync(supergraph, 'utf8')}\n# reloaded\n`);
  await expect
    .poll(() => gateway.logLines().some((line) => line.msg === 'supergraph reloaded'), { timeout: 10_000 })
    .toBe(true);
  expect((await postGraphQL(gateway.url, QUERY, headers)).status).toBe(200);
}

describe('outbound connections', () => {
  it('none but to loopback, with every plugin on, through traffic, a reload and SIGTERM (exit 0)', async () => {
    const { gateway, supergraph, attempts } = await guardedGateway();
    await exercise(gateway, supergraph);
    expect(await gateway.stop('SIGTERM')).toBe(0);
    expect(attempts()).toEqual([]);
    expect(otlp.spans.length).toBeGreaterThan(0); // the configured exporter did run, on loopback
  });

  it("the guard sees @apollo/gateway's telemetry when APOLLO_TELEMETRY=true asks for it", async () => {
    const { gateway, attempts } = await guardedGateway({ APOLLO_TELEMETRY: 'true' });
    await postGraphQL(gateway.url, QUERY, { authorization: `Bearer ${await token(key)}`, 'x-api-key': API_KEY });
    await gateway.stop('SIGTERM');
    expect(attempts().length).toBeGreaterThan(0);
  });
});
