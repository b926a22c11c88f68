import { fileURLToPath } from 'node:url';
import { runModuleScript } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044: the patched dependencies (patches/) and the gateway's own imports load what only an
// optional feature uses when that feature is first used, not when the module loads. Each case
// runs in a fresh Node process (this one has loaded much already), with a load hook that names
// every file loaded: what must stay out is checked, then the feature is used and must work.
// (valibot's patch is of another kind: its source made ASCII, so V8 stores it at half the size.)

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
  '/ts-graphviz/',
  '/pretty-format/',
];

describe('@apollo/gateway, patched', () => {
  it('loads none of its optional parts with the gateway, then each when it is used', () => {
    const result = run(`
      const gateway = await import('@apollo/gateway');
      const { executeQueryPlan } = await import('@apollo/gateway/dist/executeQueryPlan.js');
      const { buildOperationContext } = await import('@apollo/gateway/dist/operationContext.js');
      const { Supergraph, operationFromDocument } = await import('@apollo/federation-internals');
      const { QueryPlanner, prettyFormatQueryPlan } = await import('@apollo/query-planner');
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
        printed: prettyFormatQueryPlan(plan).startsWith('QueryPlan {'),
        stillUnused: ['@opentelemetry/sdk-metrics', '/ts-graphviz/'].filter(loaded),
      }));
    `);
    expect(result).toEqual({
      atLoad: [],
      composed: true,
      answer: { data: { a: 7 } },
      trace: ['fetch'],
      traced: true,
      fetcher: 'function',
      printed: true,
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

describe('valibot, patched', () => {
  it('is ASCII (V8 keeps a source with any character above U+00FF at two bytes a character)', () => {
    const result = run(`
      const { readFileSync } = await import('node:fs');
      const { fileURLToPath } = await import('node:url');
      const v = await import('valibot');
      const source = readFileSync(fileURLToPath(import.meta.resolve('valibot')), 'utf8');
      const parsed = v.safeParse(v.object({ a: v.object({ b: v.number() }) }), { a: { b: 'x' } });
      console.log(JSON.stringify({ wide: [...source].filter((c) => c.codePointAt(0) > 0xff).length, summary: v.summarize(parsed.issues) }));
    `);
    // The one arrow valibot prints is still an arrow.
    expect(result).toEqual({ wide: 0, summary: '× Invalid type: Expected number but received "x"\n  → at a.b' });
  });
});
