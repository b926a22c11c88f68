import type { GatewayPlugin } from '@fedgw/gateway';
import {
  eventually,
  type Gate,
  postGraphQL,
  type RunningSubgraph,
  startGate,
  startSubgraphs,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ServedGateway, serveGateway } from './helpers/serve-gateway.js';

/**
 * Serialize once (gateway/src/serialize/shared-answer.ts), in process over real HTTP with the
 * real subgraphs: callers that joined one inbound-deduplicated execution get its `data`
 * serialized once, each body still its own (extensions, errors, a patched copy of the data).
 * Products sits behind a gate, so the requests provably overlap; a plugin added in code
 * counts the joins and gives each caller what no configuration can: its own extensions,
 * errors or data, as a custom plugin may.
 */
const TOP = 'query Top($first: Int) { topProducts(first: $first) { id name price } }';

/** The final result of each request, by request id, as Apollo Server serializes it. */
const served = new Map<string, { readonly data?: unknown }>();
let joins = 0;

/** Every caller gets `extensions.caller`; an id ending `-errors` gets an error, `-patched` a copy of the data. */
const perCaller: GatewayPlugin = {
  name: 'per-caller',
  onEvent(event) {
    if (event.type === 'inbound-dedup' && event.outcome === 'joined') joins += 1;
  },
  apollo: {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue: { requestId } }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, caller: requestId };
          if (requestId.endsWith('-errors')) result.errors = [{ message: `for ${requestId} only` }];
          // Replaced, never edited in place (the data is shared), as authorization patches it.
          if (requestId.endsWith('-patched')) result.data = { ...result.data, topProducts: [] };
          served.set(requestId, result);
        },
      };
    },
  },
};

let subgraphs: Record<'users' | 'products' | 'reviews', RunningSubgraph>;
let gate: Gate;
let gateway: ServedGateway;
beforeAll(async () => {
  subgraphs = await startSubgraphs();
  gate = await startGate(subgraphs.products.url);
  gateway = await serveGateway(
    { ...subgraphUrlEnv({ ...subgraphs, products: gate.server }), INBOUND_DEDUPLICATE: 'true' },
    { plugins: [perCaller] },
  );
});
afterAll(async () => {
  await gateway?.close();
  await gate?.server.close();
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const top = (requestId: string) =>
  postGraphQL(gateway.url, { query: TOP, variables: { first: 5 } }, { 'x-request-id': requestId });

/** The JSON.stringify calls made while `action` runs (it still stringifies). */
async function stringified<T>(action: () => Promise<T>): Promise<{ result: T; args: unknown[] }> {
  const spy = vi.spyOn(JSON, 'stringify');
  try {
    const result = await action();
    return { result, args: spy.mock.calls.map(([value]) => value) };
  } finally {
    spy.mockRestore();
  }
}

describe('callers that joined one execution', () => {
  it("get the shared data's bytes, serialized once, each around its own extensions, errors or data", async () => {
    const alone = await stringified(() => top('alone'));
    const aloneData = served.get('alone')?.data;
    // A request that shared nothing is serialized as Apollo Server does it: the whole result at once.
    expect(alone.args.filter((value) => value === aloneData)).toHaveLength(0);
    expect(alone.args.filter((value) => (value as { data?: unknown } | null)?.data === aloneData)).toHaveLength(1);
    const dataBytes = JSON.stringify(aloneData);
    expect(alone.result.text).toBe(`{"data":${dataBytes},"extensions":{"caller":"alone"}}\n`);

    const ids = ['joined-1', 'joined-2', 'joined-3-errors', 'joined-4-patched', 'joined-5'];
    const fetchesBefore = gate.server.requests.length;
    const joinsBefore = joins;
    gate.close();
    const { result: results, args } = await stringified(async () => {
      const answers = Promise.all(ids.map(top));
      try {
        await eventually(() => {
          expect(gate.server.requests.length - fetchesBefore).toBe(1);
          expect(joins - joinsBefore).toBe(ids.length - 1);
        });
      } finally {
        gate.release();
      }
      return answers;
    });

    const body = (id: string) => results[ids.indexOf(id)]?.text;
    const extensions = (id: string) => `"extensions":{"caller":"${id}"}`;
    for (const id of ['joined-1', 'joined-2', 'joined-5']) {
      expect(body(id)).toBe(`{"data":${dataBytes},${extensions(id)}}\n`);
    }
    expect(body('joined-3-errors')).toBe(
      `{"errors":[{"message":"for joined-3-errors only"}],"data":${dataBytes},${extensions('joined-3-errors')}}\n`,
    );
    expect(body('joined-4-patched')).toBe(`{"data":{"topProducts":[]},${extensions('joined-4-patched')}}\n`);
    results.forEach((result, i) => {
      expect(result.status).toBe(200);
      expect(result.headers.get('x-request-id')).toBe(ids[i]);
    });

    // They were handed one data object (so the bytes above came from one serialization)...
    const shared = served.get('joined-1')?.data;
    for (const id of ['joined-2', 'joined-3-errors', 'joined-5']) expect(served.get(id)?.data).toBe(shared);
    // ...serialized once on its own, never as part of a whole result.
    expect(args.filter((value) => value === shared)).toHaveLength(1);
    expect(args.filter((value) => (value as { data?: unknown } | null)?.data === shared)).toHaveLength(0);
  });
});
