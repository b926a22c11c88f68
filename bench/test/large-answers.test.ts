/**
 * §F's reference answer against the real subgraphs through real gateways: ours (nest-fastify),
 * Hive Gateway (its own planner, the Rust one, and with its inbound dedup); and a target that
 * gets one repeated entity wrong is caught. `pnpm build` first.
 */
import { expectedDashboard } from '@fedgw/subgraphs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers } from '../src/load/answer-check.js';
import { postJson } from '../src/load/http-post.js';
import {
  type BenchQuery,
  DASHBOARD,
  DASHBOARD_ANSWER_BYTES,
  DASHBOARD_DEFERRED,
  requestBody,
} from '../src/load/queries.js';
import { createSetups, type SetupKey, type Setups } from '../src/targets/setups.js';
import { startTarget } from '../src/targets/start-target.js';
import { type RunningSubgraphs, startSubgraphs } from '../src/targets/subgraph-processes.js';
import { resolveTargets } from '../src/targets/targets.js';
import { sendJson, startFakeServer } from './fake-server.js';
import { freeConsecutivePorts } from './ports.js';

let subgraphs: RunningSubgraphs;
let setups: Setups;

beforeAll(async () => {
  subgraphs = await startSubgraphs(await freeConsecutivePorts(3), undefined);
  setups = await createSetups();
});

afterAll(async () => {
  await subgraphs?.stop();
});

/** Starts `name` in `setup` on a free port, checks the Dashboard answer (or `queries`'), stops it. */
async function checkTarget(name: string, setup: SetupKey, queries: readonly BenchQuery[] = [DASHBOARD]) {
  const [target] = resolveTargets([name], []);
  if (!target) throw new Error(`no target ${name}`);
  const port = await freeConsecutivePorts(1);
  const running = await startTarget(target, setups[setup], {
    port,
    subgraphUrls: subgraphs.urls,
    cpus: undefined,
    nodeFlags: [],
    router: null,
    setupContext: {},
  });
  try {
    return await checkAnswers({ url: running.url, queries, userIds: [] });
  } finally {
    await running.stop();
  }
}

describe('§F reference answer', () => {
  it('is 50-100 KB, and authors and products repeat in it', () => {
    expect(DASHBOARD_ANSWER_BYTES).toBeGreaterThan(50 * 1024);
    expect(DASHBOARD_ANSWER_BYTES).toBeLessThan(100 * 1024);
    const products = expectedDashboard().topProducts.flatMap((p) =>
      p.reviews.flatMap((r) => r.author.reviews.map((o) => o.product.id)),
    );
    expect(new Set(products).size).toBeLessThan(products.length / 1.5);
  });

  it('is what our gateway answers over the real subgraphs', async () => {
    expect(await checkTarget('nest-fastify', 'none')).toEqual({ ok: true, checked: 1 });
  }, 60_000);

  it("is what our gateway's @defer parts add up to (Dashboard · @defer, merged as a client merges them)", async () => {
    expect(await checkTarget('nest-fastify', 'none', [DASHBOARD_DEFERRED])).toEqual({ ok: true, checked: 1 });
  }, 60_000);

  it('is what Hive Gateway answers, with its own planner and with the Rust one', async () => {
    expect(await checkTarget('hive-gateway', 'none')).toEqual({ ok: true, checked: 1 });
    expect(await checkTarget('hive-gateway-rust', 'none')).toEqual({ ok: true, checked: 1 });
  }, 120_000);

  it('is what Hive Gateway answers with its inbound dedup on', async () => {
    expect(await checkTarget('hive-gateway', 'dedup')).toEqual({ ok: true, checked: 1 });
  }, 60_000);

  it('is what our gateway answers with SUBGRAPH_ and INBOUND_DEDUPLICATE', async () => {
    expect(await checkTarget('nest-fastify', 'dedup')).toEqual({ ok: true, checked: 1 });
  }, 60_000);

  it('catches a target that gets one repeated product wrong', async () => {
    const data = expectedDashboard();
    const card = data.topProducts[3]?.reviews[0]?.author.reviews[0]?.product as { name: string | undefined };
    card.name = 'Wrong Name';
    const wrong = await startFakeServer((_body, _i, res) => sendJson(res, 200, { data }));
    try {
      const check = await checkAnswers({ url: wrong.url, queries: [DASHBOARD], userIds: [] });
      expect(check).toEqual({
        ok: false,
        message: expect.stringMatching(
          /^Dashboard: at data\.topProducts\[3\]\.reviews\[0\]\.author\.reviews\[0\]\.product\.name/,
        ),
      });
    } finally {
      await wrong.close();
    }
  });

  it('every client sends the same body', () => {
    expect(requestBody(DASHBOARD)).toBe(requestBody(DASHBOARD));
    expect(JSON.parse(requestBody(DASHBOARD))).toEqual({ query: DASHBOARD.text });
  });
});

describe('hive-gateway target', () => {
  it('answers GraphQL like the others and refuses GraphiQL (production)', async () => {
    const [target] = resolveTargets(['hive-gateway'], []);
    if (!target) throw new Error('no target');
    const port = await freeConsecutivePorts(1);
    const running = await startTarget(target, setups.none, {
      port,
      subgraphUrls: subgraphs.urls,
      cpus: undefined,
      nodeFlags: [],
      router: null,
      setupContext: {},
    });
    try {
      const answer = await postJson(running.url, JSON.stringify({ query: '{ __typename }' }), {
        'apollo-require-preflight': 'true',
      });
      expect(JSON.parse(answer.text)).toEqual({ data: { __typename: 'Query' } });
      const page = await fetch(running.url, { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toMatch(/graphiql/i);
    } finally {
      await running.stop();
    }
  }, 60_000);
});
