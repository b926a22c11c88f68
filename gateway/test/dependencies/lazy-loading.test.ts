import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runModuleScript } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044, ADR 051: patches/@apollo__gateway@2.14.4.patch and the gateway's own imports load
// what only an optional feature uses when that feature is first used, not when the module loads
// (the pull request text is docs/upstream/apollo-gateway.md). Each case runs in a fresh Node
// process (this one has loaded much already), with a load hook that names every file loaded:
// what must stay out is checked, then the feature is used and must work. An upgrade that drops
// or loses the patch fails the first check; the version check makes an upgrade re-measure it.

const GATEWAY_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `body` (an ES module, with `loaded(text)`) from gateway/; it prints one JSON value. */
function run(body: string): unknown {
  return runModuleScript(GATEWAY_DIR, body, { recordLoads: true });
}

const OPTIONAL_IN_APOLLO_GATEWAY = [
  '@opentelemetry/semantic-conventions/dist/index-incubating',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/resource-detector-aws',
  '/make-fetch-happen/',
  '/node-fetch/',
  '@apollo/usage-reporting-protobuf',
  '@apollo/composition',
];

/** The version the patch was made and measured for (ADR 051 lists the steps of an upgrade). */
const PATCHED_VERSION = '2.14.4';

describe('@apollo/gateway, patched', () => {
  it(`is ${PATCHED_VERSION}`, () => {
    const entry = createRequire(import.meta.url).resolve('@apollo/gateway');
    const packageJson = `${entry.slice(0, entry.lastIndexOf('/@apollo/gateway/'))}/@apollo/gateway/package.json`;
    expect((JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version).toBe(PATCHED_VERSION);
  });

  it('loads none of its optional parts with the gateway, then each when it is used', () => {
    const result = run(`
      const gateway = await import('@apollo/gateway');
      const { executeQueryPlan } = await import('@apollo/gateway/dist/executeQueryPlan.js');
      const { buildOperationContext } = await import('@apollo/gateway/dist/operationContext.js');
      const { Supergraph, operationFromDocument } = await import('@apollo/federation-internals');
      const { QueryPlanner } = await import('@apollo/query-planner');
      const { parse } = await import('graphql');
      const atLoad = ${JSON.stringify(OPTIONAL_IN_APOLLO_GATEWAY)}.filter(loaded);

      // A composing supergraph manager (@apollo/composition).
      const manager = new gateway.LocalCompose({ localServiceList: [{ name: 'a', typeDefs: parse('type Query { a: Int }') }] });
      const { supergraphSdl } = await manager.initialize({ update() {}, healthCheck: async () => {}, getDataSource: () => ({}) });
      // A plan run with an Apollo usage-reporting trace (ftv1: protobuf, node-fetch Headers).
      const supergraph = Supergraph.build(supergraphSdl);
      const document = parse('{ a }');
      const plan = new QueryPlanner(supergraph).buildQueryPlan(operationFromDocument(supergraph.schema, document));
      const apiSchema = supergraph.apiSchema().toGraphQLJSSchema();
      const requestContext = { request: { variables: {} }, metrics: { captureTraces: true }, context: {}, logger: console };
      const answer = await executeQueryPlan(
        plan,
        { a: { process: async () => ({ data: { a: 7 } }) } },
        requestContext,
        buildOperationContext({ schema: apiSchema, operationDocument: document }),
        supergraph.schema.toGraphQLJSSchema(),
        supergraph.apiSchema(),
      );
      // The default data source (make-fetch-happen).
      const source = new gateway.RemoteGraphQLDataSource({ url: 'http://127.0.0.1:1/graphql' });
      console.log(JSON.stringify({
        atLoad,
        composed: supergraphSdl.includes('type Query'),
        answer,
        trace: Object.keys(requestContext.metrics.queryPlanTrace.toJSON()),
        traced: loaded('@apollo/usage-reporting-protobuf') && loaded('/node-fetch/'),
        fetcher: typeof source.fetcher,
        stillUnused: ['@opentelemetry/sdk-metrics', '@opentelemetry/resource-detector-aws'].filter(loaded),
      }));
    `);
    expect(result).toEqual({
      atLoad: [],
      composed: true,
      answer: { data: { a: 7 } },
      trace: ['fetch'],
      traced: true,
      fetcher: 'function',
      stillUnused: [],
    });
  });
});

describe("the gateway's undici Pool", () => {
  it('is the class undici exports, loaded without the rest of undici (fetch, WebSocket)', () => {
    const result = run(`
      const { Pool } = await import('./src/subgraph-fetch/undici-pool.ts');
      const withoutIndex = !loaded('/undici/index.js') && !loaded('/undici/lib/web/');
      const undici = await import('undici');
      console.log(JSON.stringify({ withoutIndex, same: Pool === undici.Pool }));
    `);
    expect(result).toEqual({ withoutIndex: true, same: true });
  });
});
